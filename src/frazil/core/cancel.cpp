#include "frazil/core/cancel.hpp"

#include "frazil/core/error.hpp"

namespace frazil {

namespace detail {

namespace {
thread_local const CancelState* t_state = nullptr;
}  // namespace

const CancelState* current_cancel_state() noexcept { return t_state; }
void set_current_cancel_state(const CancelState* state) noexcept { t_state = state; }

void CancelState::raise() const {
  if (token && token->cancelled()) throw CancelledError("the query was cancelled");
  throw CancelledError(err_msg("the query ran past its timeout of ", timeout.count(), " ms"));
}

}  // namespace detail

CancelScope::CancelScope(const CancelToken* token, std::optional<std::chrono::milliseconds> timeout)
    : previous_(detail::current_cancel_state()) {
  state_.token = token;
  if (timeout) {
    state_.timeout = *timeout;
    state_.deadline = std::chrono::steady_clock::now() + *timeout;
  }
  detail::set_current_cancel_state(&state_);
}

CancelScope::~CancelScope() { detail::set_current_cancel_state(previous_); }

}  // namespace frazil
