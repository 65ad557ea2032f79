#include "frazil/io/fs/output_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "frazil/core/error.hpp"
#include "frazil/core/memory.hpp"
#include "frazil/core/os_error.hpp"

using namespace frazil;
using namespace frazil::io;
namespace fs = std::filesystem;

namespace {

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("frazil_output_file_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, ec);
    fs::remove_all(dir_, ec);
  }
  static std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }
  static void put(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }
  // Names in the directory, to check that no temporary file is left behind.
  size_t entries() const { return static_cast<size_t>(std::distance(fs::directory_iterator(dir_), {})); }
  fs::path dir_;
};

int error_code_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const OsError& e) {
    return e.code();
  }
  return 0;
}

TEST_F(OutputFileTest, CommitReplacesTheTarget) {
  const fs::path p = dir_ / "a.txt";
  put(p, "old");
  OutputFile f(p.string());
  f.write("new ");
  f.write(std::string(3 << 20, 'x'));  // past the buffer: written straight through
  EXPECT_EQ(slurp(p), "old");         // the target is untouched until commit
  f.commit();
  EXPECT_EQ(slurp(p), "new " + std::string(3 << 20, 'x'));
  EXPECT_EQ(f.bytes_written(), 4 + (3 << 20));
  EXPECT_EQ(entries(), 1u);
}

// The replacement swaps names (RENAME_EXCHANGE) and removes the old file: as rename(), a
// reader holding the old file and another hard link of it keep the old bytes.
TEST_F(OutputFileTest, ReplacingKeepsTheOldFileForItsOtherNamesAndReaders) {
  const fs::path p = dir_ / "a.txt", other = dir_ / "b.txt";
  put(p, "old");
  fs::create_hard_link(p, other);
  std::ifstream reader(p, std::ios::binary);
  for (int round = 0; round < 3; ++round) {
    OutputFile f(p.string());
    f.write("new" + std::to_string(round));
    f.commit();
    EXPECT_EQ(slurp(p), "new" + std::to_string(round));
    EXPECT_EQ(entries(), 2u);  // a.txt and b.txt: no temporary name left
  }
  EXPECT_EQ(slurp(other), "old");
  std::string seen;
  reader >> seen;
  EXPECT_EQ(seen, "old");
}

TEST_F(OutputFileTest, AbortAndDestructionKeepTheOldFile) {
  const fs::path p = dir_ / "a.txt";
  put(p, "old");
  {
    OutputFile f(p.string());
    f.write("half");
    f.abort();
  }
  { OutputFile f(p.string()); f.write("half"); }  // destroyed without commit
  EXPECT_EQ(slurp(p), "old");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(OutputFileTest, NewFileAppearsOnlyAtCommit) {
  const fs::path p = dir_ / "new.txt";
  OutputFile f(p.string());
  f.write("x");
  EXPECT_FALSE(fs::exists(p));
  f.commit();
  EXPECT_EQ(slurp(p), "x");
}

TEST_F(OutputFileTest, KeepsTheOldPermissions) {
  const fs::path p = dir_ / "a.txt";
  put(p, "old");
  ::chmod(p.c_str(), 0640);
  OutputFile f(p.string());
  f.write("new");
  f.commit();
  struct stat st {};
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST_F(OutputFileTest, FollowsSymlinksAndKeepsThem) {
  const fs::path target = dir_ / "target.txt";
  const fs::path link = dir_ / "link.txt";
  put(target, "old");
  fs::create_symlink("target.txt", link);  // relative, resolved against the link's directory
  OutputFile f(link.string());
  f.write("new");
  f.commit();
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(slurp(target), "new");
}

TEST_F(OutputFileTest, DirectoryIsRefusedAndKept) {
  EXPECT_EQ(error_code_of([&] { OutputFile f(dir_.string()); }), EISDIR);
  EXPECT_TRUE(fs::is_directory(dir_));
}

TEST_F(OutputFileTest, MissingDirectoryNamesTheReason) {
  const std::string p = (dir_ / "missing" / "a.txt").string();
  try {
    OutputFile f(p);
    FAIL() << "no error";
  } catch (const OsError& e) {
    EXPECT_EQ(e.code(), ENOENT);
    EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos) << e.what();
  }
}

TEST_F(OutputFileTest, DevicesAreWrittenInPlaceNeverUnlinked) {
  {
    OutputFile f("/dev/null");
    EXPECT_TRUE(f.in_place());
    f.write("x");
    f.commit();
  }
  EXPECT_TRUE(fs::exists("/dev/null"));
  if (fs::exists("/dev/full")) {
    EXPECT_EQ(error_code_of([] {
                OutputFile f("/dev/full");
                f.write(std::string(2 << 20, 'x'));
                f.commit();
              }),
              ENOSPC);
    EXPECT_TRUE(fs::exists("/dev/full"));
  }
}

TEST_F(OutputFileTest, FifoIsWrittenInPlace) {
  const fs::path p = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = slurp(p); });
  {
    OutputFile f(p.string());
    f.write("through the pipe");
    f.commit();
  }
  reader.join();
  EXPECT_EQ(got, "through the pipe");
  EXPECT_TRUE(fs::exists(p));
}

TEST_F(OutputFileTest, ReadOnlyDirectoryKeepsTheOldFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions";
  const fs::path p = dir_ / "a.txt";
  put(p, "old");
  ::chmod(dir_.c_str(), 0555);
  EXPECT_EQ(error_code_of([&] { OutputFile f(p.string()); }), EACCES);
  EXPECT_EQ(slurp(p), "old");
}

}  // namespace

// The write buffer counts against the memory limit while the file is open, sized by the
// caller (spill files keep many open and take small ones).
TEST_F(OutputFileTest, TheWriteBufferCountsAgainstTheMemoryLimit) {
  const int64_t before = memory_in_use();
  {
    OutputFile small((dir_ / "small.bin").string(), 32 << 10);
    EXPECT_EQ(memory_in_use(), before + (32 << 10));
    small.write("abc", 3);
    small.commit();
  }
  EXPECT_EQ(memory_in_use(), before);
  EXPECT_EQ(slurp(dir_ / "small.bin"), "abc");
  set_memory_limit(before + (512 << 10));
  try {
    OutputFile big((dir_ / "big.bin").string());  // the default 1 MiB buffer passes the limit
    ADD_FAILURE() << "no MemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("write buffer"), std::string::npos) << e.what();
  }
  set_memory_limit(0);
  EXPECT_EQ(memory_in_use(), before);
  EXPECT_FALSE(fs::exists(dir_ / "big.bin"));
}
