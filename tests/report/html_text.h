// Reading a report page as text in the report tests.
#pragma once

#include <string>

namespace inrarch::test {

// The <section id="id"> element of the page up to its closing tag ("" when absent).
inline std::string section_of(const std::string& page, const std::string& id) {
  const size_t start = page.find("<section id=\"" + id + "\"");
  if (start == std::string::npos) return "";
  return page.substr(start, page.find("</section>", start) - start);
}

// Occurrences of `what` in `text`.
inline size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace inrarch::test
