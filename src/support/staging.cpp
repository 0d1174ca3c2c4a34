#include "support/staging.h"

#include <unistd.h>


#include <fmt/format.h>

#include "support/cleanup.h"
#include "support/error.h"

namespace inrarch {

namespace fs = std::filesystem;

StagingDir::StagingDir(fs::path final_dir, const std::string& marker, const std::string& kind)
    : final_(std::move(final_dir).lexically_normal()) {
  if (!final_.has_filename()) final_ = final_.parent_path();  // "out/" -> "out"
  fs::path parent = final_.has_parent_path() ? final_.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec || !fs::is_directory(parent))
    throw Error(fmt::format("cannot create folder {}: {}", parent.string(),
                            ec ? ec.message() : "a file is in the way"));
  if (fs::exists(final_) && !fs::is_directory(final_))
    throw Error(fmt::format("{}: exists and is not a folder", final_.string()));
  if (fs::is_directory(final_) && !fs::is_empty(final_, ec) && !fs::exists(final_ / marker, ec))
    throw Error(fmt::format("{}: refusing to replace a non-empty folder that is not a {} (no {})",
                            final_.string(), kind, marker));
  stage_ = parent / fmt::format(".{}.partial-{}", final_.filename().string(), ::getpid());
  fs::remove_all(stage_, ec);
  cleanup::add_path(stage_);
  if (!fs::create_directory(stage_, ec) || ec) {
    cleanup::remove_path(stage_);
    throw Error(fmt::format("cannot create folder {}: {}", stage_.string(), ec.message()));
  }
}

StagingDir::~StagingDir() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(stage_, ec);
  cleanup::remove_path(stage_);
}

void StagingDir::commit() {
  std::error_code ec;
  fs::path old = stage_;
  old += ".old";
  const bool replacing = fs::exists(final_);
  if (replacing) {
    fs::rename(final_, old, ec);
    if (ec) throw Error(fmt::format("cannot replace {}: {}", final_.string(), ec.message()));
  }
  fs::rename(stage_, final_, ec);
  if (ec) {
    std::error_code ignored;
    if (replacing) fs::rename(old, final_, ignored);
    throw Error(fmt::format("cannot move output into {}: {}", final_.string(), ec.message()));
  }
  fs::remove_all(old, ec);
  cleanup::remove_path(stage_);
  committed_ = true;
}

}  // namespace inrarch
