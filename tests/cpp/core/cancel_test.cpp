#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "frazil/core/cancel.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/thread_pool.hpp"

using namespace frazil;
using namespace std::chrono_literals;

TEST(Cancel, NoScopeNeverThrows) { EXPECT_NO_THROW(check_cancelled()); }

TEST(Cancel, TokenStopsTheScopeOnly) {
  CancelToken token;
  {
    CancelScope scope(&token, std::nullopt);
    EXPECT_NO_THROW(check_cancelled());
    token.cancel();
    EXPECT_THROW(check_cancelled(), CancelledError);
  }
  EXPECT_NO_THROW(check_cancelled());  // the scope ended
}

TEST(Cancel, DeadlinePasses) {
  CancelScope scope(nullptr, 20ms);
  EXPECT_NO_THROW(check_cancelled());
  std::this_thread::sleep_for(30ms);
  try {
    check_cancelled();
    FAIL() << "no error past the deadline";
  } catch (const CancelledError& e) {
    EXPECT_NE(std::string(e.what()).find("timeout of 20 ms"), std::string::npos) << e.what();
  }
}

TEST(Cancel, ParallelForSkipsTheTasksLeftAndReachesTheWorkers) {
  CancelToken token;
  CancelScope scope(&token, std::nullopt);
  std::atomic<int> ran{0};
  std::atomic<int> saw_scope{0};
  EXPECT_THROW(parallel_for(10'000,
                            [&](size_t i) {
                              // Every task, on whichever thread, runs in the submitter's scope.
                              if (detail::current_cancel_state() != nullptr) ++saw_scope;
                              if (++ran == 100) token.cancel();
                              std::this_thread::sleep_for(10us);
                            }),
               CancelledError);
  EXPECT_LT(ran.load(), 1'000);
  EXPECT_EQ(saw_scope.load(), ran.load());
}
