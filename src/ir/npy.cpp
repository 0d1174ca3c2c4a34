// .npy reader and writer (NumPy format versions 1.0, 2.0 and 3.0).
//
// Layout: magic "\x93NUMPY", major and minor version bytes, the header length (uint16 LE in
// v1, uint32 LE in v2/v3), a Python dict literal {'descr': .., 'fortran_order': .., 'shape':
// (..)} padded with spaces to a 64-byte boundary and ended by '\n', then the raw data. We
// read little-endian numeric dtypes in C order and write float64 v1 (v2 only when the header
// would not fit in 64 KiB).
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "ir/bundle.h"
#include "ir/io_detail.h"
#include "support/error.h"
#include "support/limits.h"

namespace inrarch::ir {

namespace {

static_assert(std::endian::native == std::endian::little, ".npy I/O assumes a little-endian host");

constexpr std::string_view kMagic = "\x93NUMPY";

struct Header {
  std::string descr;
  bool fortran = false;
  Shape shape;
};

// Parses the header's Python dict literal; just enough Python for what NumPy writes.
class HeaderParser {
 public:
  HeaderParser(std::string_view h, std::string_view file) : h_(h), file_(file) {}

  Header parse() {
    Header out;
    bool have_descr = false, have_shape = false;
    expect('{');
    while (!peek_is('}')) {
      std::string key = py_string();
      expect(':');
      if (key == "descr") {
        if (!peek_is('\'') && !peek_is('"')) fail("structured dtypes are not supported");
        out.descr = py_string();
        have_descr = true;
      } else if (key == "fortran_order") {
        out.fortran = py_bool();
      } else if (key == "shape") {
        out.shape = py_tuple();
        have_shape = true;
      } else {
        fail(fmt::format("unexpected header key '{}'", key));
      }
      if (!peek_is('}')) expect(',');
    }
    if (!have_descr || !have_shape) fail("header lacks 'descr' or 'shape'");
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw Error(fmt::format("{}: bad .npy header: {} (header: {})", file_, why, h_));
  }
  void skip_ws() {
    while (pos_ < h_.size() && (h_[pos_] == ' ' || h_[pos_] == '\n' || h_[pos_] == '\t')) ++pos_;
  }
  bool peek_is(char c) {
    skip_ws();
    return pos_ < h_.size() && h_[pos_] == c;
  }
  void expect(char c) {
    if (!peek_is(c)) fail(fmt::format("expected '{}'", c));
    ++pos_;
  }
  std::string py_string() {
    skip_ws();
    char q = pos_ < h_.size() ? h_[pos_] : '\0';
    if (q != '\'' && q != '"') fail("expected a quoted string");
    size_t end = h_.find(q, pos_ + 1);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string s(h_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return s;
  }
  bool py_bool() {
    skip_ws();
    for (auto [word, v] : {std::pair{"True", true}, std::pair{"False", false}})
      if (h_.substr(pos_, std::strlen(word)) == word) {
        pos_ += std::strlen(word);
        return v;
      }
    fail("expected True or False");
  }
  Shape py_tuple() {
    Shape s;
    expect('(');
    while (!peek_is(')')) {
      int64_t d = 0;
      bool any = false;
      for (; pos_ < h_.size() && h_[pos_] >= '0' && h_[pos_] <= '9'; ++pos_, any = true) {
        d = d * 10 + (h_[pos_] - '0');
        if (d > limits::kMaxElements)  // stops before d * 10 could overflow
          throw LimitError(fmt::format("{}: a dimension of the shape has more elements than the limit of {} (2^31)",
                                       file_, limits::kMaxElements));
      }
      if (!any) fail("expected a non-negative integer in the shape");
      if (pos_ < h_.size() && h_[pos_] == 'L') ++pos_;  // Python 2 longs
      s.push_back(d);
      if (!peek_is(')')) expect(',');
    }
    ++pos_;
    return s;
  }

  std::string_view h_;
  std::string_view file_;
  size_t pos_ = 0;
};

template <typename T>
void convert(const char* src, std::vector<double>& dst) {
  for (size_t i = 0; i < dst.size(); ++i) {
    T v;
    std::memcpy(&v, src + i * sizeof(T), sizeof(T));
    dst[i] = static_cast<double>(v);
  }
}

using Converter = void (*)(const char*, std::vector<double>&);

struct Dtype {
  std::string_view descr;
  size_t itemsize;
  Converter convert;
};

constexpr Dtype kDtypes[] = {
    {"<f8", 8, &convert<double>}, {"<f4", 4, &convert<float>},   {"<i8", 8, &convert<int64_t>},
    {"<i4", 4, &convert<int32_t>}, {"<i2", 2, &convert<int16_t>}, {"|i1", 1, &convert<int8_t>},
    {"|u1", 1, &convert<uint8_t>}, {"|b1", 1, &convert<uint8_t>},
};

const Dtype& find_dtype(const std::string& descr, std::string_view file) {
  for (const Dtype& d : kDtypes)
    if (d.descr == descr) return d;
  throw Error(fmt::format("{}: unsupported dtype '{}' (supported: <f8 <f4 <i8 <i4 <i2 |i1 |u1 |b1)", file,
                          descr));
}

uint32_t read_le(std::string_view b, size_t at, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}

// Returns the header and the offset of the first data byte.
std::pair<Header, size_t> read_header(std::string_view b, std::string_view file) {
  if (b.size() < 10 || b.substr(0, 6) != kMagic)
    throw Error(fmt::format("{}: not a .npy file (bad magic)", file));
  const int major = static_cast<unsigned char>(b[6]);
  if (major < 1 || major > 3)
    throw Error(fmt::format("{}: unsupported .npy version {}.{}", file, major, static_cast<int>(b[7])));
  const size_t len_bytes = major == 1 ? 2 : 4;
  if (b.size() < 8 + len_bytes) throw Error(fmt::format("{}: truncated .npy header", file));
  const size_t hlen = read_le(b, 8, len_bytes);
  const size_t start = 8 + len_bytes;
  if (b.size() - start < hlen)
    throw Error(fmt::format("{}: truncated .npy header: expected {} header bytes, found {}", file, hlen,
                            b.size() - start));
  // NumPy's own headers are under 200 bytes for any shape within the rank limit; the
  // header is quoted whole in errors.
  limits::check_string(b.substr(start, hlen), ".npy header", file);
  return {HeaderParser(b.substr(start, hlen), file).parse(), start + hlen};
}

std::string shape_tuple(const Shape& s) {
  if (s.size() == 1) return fmt::format("({},)", s[0]);
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + ")";
}

}  // namespace

Tensor read_npy(const std::filesystem::path& path) { return npy_from_bytes(read_file(path), path.string()); }

std::string npy_dtype(std::string_view bytes, std::string_view file) { return read_header(bytes, file).first.descr; }

Tensor npy_from_bytes(std::string_view bytes, std::string_view file) {
  auto [h, offset] = read_header(bytes, file);
  if (h.fortran)
    throw Error(fmt::format("{}: Fortran-order arrays are not supported (save a C-order array, "
                            "e.g. np.ascontiguousarray)",
                            file));
  const Dtype& dt = find_dtype(h.descr, file);
  const int64_t n = limits::checked_numel(h.shape, file);
  const size_t expected = static_cast<size_t>(n) * dt.itemsize;
  const size_t found = bytes.size() - offset;
  if (found < expected)
    throw Error(fmt::format("{}: truncated data: shape {} of {} needs {} bytes, found {}", file,
                            shape_str(h.shape), h.descr, expected, found));
  if (found > expected)
    throw Error(fmt::format("{}: {} unexpected bytes after the data (shape {} of {} needs {} bytes)", file,
                            found - expected, shape_str(h.shape), h.descr, expected));
  std::vector<double> data(static_cast<size_t>(n));
  dt.convert(bytes.data() + offset, data);
  return Tensor(std::move(h.shape), std::move(data));
}

void write_npy(const Tensor& t, const std::filesystem::path& path) {
  if (static_cast<size_t>(limits::checked_numel(t.shape, path.string())) != t.data.size())
    throw Error(fmt::format("{}: tensor of shape {} holds {} values", path.string(), shape_str(t.shape),
                            t.data.size()));
  std::string dict =
      fmt::format("{{'descr': '<f8', 'fortran_order': False, 'shape': {}, }}", shape_tuple(t.shape));
  // Pad with spaces so that the data starts on a 64-byte boundary, as NumPy does.
  const bool v1 = dict.size() + 1 + 10 <= 65535;
  const size_t prefix = v1 ? 10 : 12;
  dict.append((64 - (prefix + dict.size() + 1) % 64) % 64, ' ');
  dict += '\n';
  std::string out(kMagic);
  out += static_cast<char>(v1 ? 1 : 2);
  out += '\0';
  for (size_t i = 0; i < prefix - 8; ++i) out += static_cast<char>((dict.size() >> (8 * i)) & 0xff);
  out += dict;
  const size_t at = out.size();
  out.resize(at + t.data.size() * sizeof(double));
  if (!t.data.empty()) std::memcpy(out.data() + at, t.data.data(), t.data.size() * sizeof(double));
  write_file(path, out);
}

}  // namespace inrarch::ir
