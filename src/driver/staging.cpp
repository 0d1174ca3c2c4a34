#include "driver/staging.h"

#include <unistd.h>

#include <fmt/format.h>

#include "ir/error.h"

namespace inrarch::driver {

namespace fs = std::filesystem;

StagingDir::StagingDir(fs::path final_dir) : final_(std::move(final_dir)) {
  if (final_.has_filename() == false) final_ = final_.parent_path();
  fs::path parent = final_.has_parent_path() ? final_.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec || !fs::is_directory(parent))
    throw Error(fmt::format("cannot create folder {}: {}", parent.string(),
                            ec ? ec.message() : "a file is in the way"));
  if (fs::exists(final_) && !fs::is_directory(final_))
    throw Error(fmt::format("{} exists and is not a folder", final_.string()));
  stage_ = parent / fmt::format(".{}.partial-{}", final_.filename().string(), ::getpid());
  fs::remove_all(stage_, ec);
  if (!fs::create_directory(stage_, ec) || ec)
    throw Error(fmt::format("cannot create folder {}: {}", stage_.string(), ec.message()));
}

StagingDir::~StagingDir() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(stage_, ec);
}

void StagingDir::commit() {
  std::error_code ec;
  fs::path old = stage_;
  old += ".old";
  if (fs::exists(final_)) {
    fs::rename(final_, old, ec);
    if (ec) throw Error(fmt::format("cannot replace {}: {}", final_.string(), ec.message()));
  }
  fs::rename(stage_, final_, ec);
  if (ec) throw Error(fmt::format("cannot move output into {}: {}", final_.string(), ec.message()));
  fs::remove_all(old, ec);
  committed_ = true;
}

}  // namespace inrarch::driver
