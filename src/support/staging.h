// Outputs that appear only when complete. A folder is built in a hidden sibling
// ("<out>.partial-<pid>") and swapped into place by commit(); the destructor removes it if
// commit() never ran (an error unwound past it). A single file is written to a sibling and
// renamed over the target. Used by bundles, `compile` and the MLIR writer. A staged folder
// is registered with support/cleanup.h, so an interrupted run removes it too.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace inrarch {

class StagingDir {
 public:
  // marker: a file every folder of this kind has (a bundle's "graph.json"); an existing
  // non-empty final_dir without it is refused, so `-o ~` cannot wipe a home folder. kind
  // names the folder in that error ("bundle").
  StagingDir(std::filesystem::path final_dir, const std::string& marker, const std::string& kind);
  ~StagingDir();
  StagingDir(const StagingDir&) = delete;
  StagingDir& operator=(const StagingDir&) = delete;

  const std::filesystem::path& path() const { return stage_; }
  // Replaces final_dir (if it exists) with the staged folder; on failure the old one stays.
  void commit();

 private:
  std::filesystem::path final_;
  std::filesystem::path stage_;
  bool committed_ = false;
};

}  // namespace inrarch
