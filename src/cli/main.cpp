#include <cstdio>
int main() { std::puts("inrarch: under construction"); return 0; }
