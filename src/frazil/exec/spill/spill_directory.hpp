// Where spilled data goes: one directory per process, made at the first spill under
// FRAZIL_TEMP_DIRECTORY (default: $TMPDIR, else /tmp) as frazil-spill-XXXXXX, and removed
// with whatever is left in it when the process exits normally. Each spill file removes
// itself when its owner (a sink's state) is destroyed, so a query that fails, is cancelled
// or finishes leaves no files behind while the process keeps running.
#pragma once

#include <string>

namespace frazil::exec::spill {

// The directory (made on first use); throws OsError naming it when it cannot be made.
const std::string& spill_directory();
// A fresh file name in the directory ("<prefix>-<n>.arrow"); the file is not created.
std::string new_spill_path(const std::string& prefix);
// Removes the directory and its files now (also run at exit); the next spill makes a new one.
void remove_spill_directory() noexcept;

}  // namespace frazil::exec::spill
