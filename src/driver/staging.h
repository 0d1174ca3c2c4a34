// An output folder that appears only when complete: work happens in a hidden sibling
// ("<out>.partial-<pid>"), commit() swaps it into place, and the destructor removes it if
// commit() never ran (an error unwound past it).
#pragma once

#include <filesystem>

namespace inrarch::driver {

class StagingDir {
 public:
  explicit StagingDir(std::filesystem::path final_dir);
  ~StagingDir();
  StagingDir(const StagingDir&) = delete;
  StagingDir& operator=(const StagingDir&) = delete;

  const std::filesystem::path& path() const { return stage_; }
  // Replaces final_dir (if it exists) with the staged folder.
  void commit();

 private:
  std::filesystem::path final_;
  std::filesystem::path stage_;
  bool committed_ = false;
};

}  // namespace inrarch::driver
