// The elementwise table (src/dataflow/elementwise.def) against the files it describes: each
// row's lane module names the row's code as `localparam int OP_<OP> = code`, no lane file
// names a code the table does not give that op, and the HLS kernel library defines each
// row's operator struct. A code changed on one side only fails here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <string>

#include "backend/rtl/rtl_detail.h"
#include "dataflow/elementwise.h"
#include "support/files.h"

namespace inrarch::rtl {
namespace {

using dataflow::ElementwiseRow;

std::string upper(std::string_view s) {
  std::string u(s);
  std::transform(u.begin(), u.end(), u.begin(), [](unsigned char c) { return char(std::toupper(c)); });
  return u;
}

// "OP_SIN" for the sine row; the fabric multiply's own code is OP_MUL_FABRIC.
std::string code_name(const ElementwiseRow& r) {
  return &r == &dataflow::kMulInFabric ? "OP_MUL_FABRIC" : "OP_" + upper(ir::op_name(r.op));
}

// Every `OP_<NAME> = <n>` of a localparam list in the library's files, by file.
std::map<std::string, std::map<std::string, int>> lane_codes() {
  const std::regex decl(R"(localparam\s+int\s+([^;]*);)"), item(R"((OP_[A-Z_]+)\s*=\s*(\d+))");
  std::map<std::string, std::map<std::string, int>> out;
  for (const auto& f : detail::library_files())
    for (auto d = std::sregex_iterator(f.text.begin(), f.text.end(), decl); d != std::sregex_iterator(); ++d) {
      const std::string list = (*d)[1];
      for (auto i = std::sregex_iterator(list.begin(), list.end(), item); i != std::sregex_iterator(); ++i)
        out[f.name][(*i)[1]] = std::stoi((*i)[2]);
    }
  return out;
}

std::vector<const ElementwiseRow*> all_rows() {
  std::vector<const ElementwiseRow*> rows;
  for (const ElementwiseRow& r : dataflow::elementwise_rows()) rows.push_back(&r);
  rows.push_back(&dataflow::kMulInFabric);
  return rows;
}

TEST(ElementwiseTable, EachLaneModuleNamesItsRowsCodes) {
  const auto codes = lane_codes();
  ASSERT_GE(dataflow::elementwise_rows().size(), 13u);
  for (const ElementwiseRow* r : all_rows()) {
    SCOPED_TRACE(code_name(*r));
    const auto file = codes.find(std::string(r->lane) + ".sv");
    ASSERT_NE(file, codes.end()) << r->lane << ".sv names no lane codes";
    const auto code = file->second.find(code_name(*r));
    ASSERT_NE(code, file->second.end()) << r->lane << ".sv does not name " << code_name(*r);
    EXPECT_EQ(code->second, r->code);
  }
}

TEST(ElementwiseTable, NoLibraryFileNamesAnotherCode) {
  std::map<std::string, int> table;
  for (const ElementwiseRow* r : all_rows()) {
    EXPECT_TRUE(table.emplace(code_name(*r), r->code).second) << "two rows named " << code_name(*r);
    for (const ElementwiseRow* o : all_rows()) {
      if (o == r) continue;
      EXPECT_NE(o->code, r->code) << code_name(*r) << " and " << code_name(*o) << " share a code";
    }
  }
  for (const auto& [file, codes] : lane_codes())
    for (const auto& [name, code] : codes) {
      const auto row = table.find(name);
      ASSERT_NE(row, table.end()) << file << " names " << name << ", which elementwise.def has no row for";
      EXPECT_EQ(code, row->second) << file << ": " << name;
    }
}

TEST(ElementwiseTable, EachRowsOperatorIsInTheHlsLibrary) {
  const std::string lib =
      read_file(std::filesystem::path(INRARCH_SOURCE_DIR) / "src/backend/hls/include/inrarch/elementwise.h");
  for (const ElementwiseRow* r : all_rows())
    EXPECT_TRUE(std::regex_search(lib, std::regex(std::string("struct ") + r->functor + R"(\s*\{)"))) << r->functor;
}

TEST(ElementwiseTable, OnlyElementwiseOpsHaveRows) {
  EXPECT_EQ(dataflow::elementwise_row(ir::Op::Mm), nullptr);
  EXPECT_EQ(dataflow::elementwise_row(ir::Op::Cat), nullptr);
  ASSERT_NE(dataflow::elementwise_row(ir::Op::Sqrt), nullptr);
  EXPECT_STREQ(dataflow::elementwise_row(ir::Op::Sqrt)->lane, "inrarch_lane_sqrt");
}

}  // namespace
}  // namespace inrarch::rtl
