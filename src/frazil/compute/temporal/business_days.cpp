// The algorithms are numpy's busday functions (datetime_busday.c), as Polars ports them.
#include "frazil/compute/temporal/business_days.hpp"

#include <algorithm>
#include <vector>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/temporal/temporal_util.hpp"
#include "frazil/compute/temporal/zone.hpp"
#include "frazil/core/builder.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

inline int day_of_week(int64_t d) { return static_cast<int>(((d - 4) % 7 + 7) % 7); }  // 0 = Monday

void require_mask(const WeekMask& m) {
  if (std::none_of(m.begin(), m.end(), [](bool b) { return b; }))
    throw ComputeError("`week_mask` must have at least one business day");
}

// The holidays of each row, sorted, without duplicates and without days the mask skips.
class Holidays {
 public:
  Holidays(const Array& lists, const WeekMask& mask) : lists_(lists), mask_(mask) {
    if (!lists.dtype().is_null() &&
        !(lists.dtype().id() == TypeId::List && (lists.dtype().inner().id() == TypeId::Date || lists.dtype().inner().is_null())))
      throw ComputeError(err_msg("dtype of holidays list must be List(Date), got ", lists.dtype(), " instead"));
  }
  int64_t length() const { return lists_.length(); }
  // nullptr for a null list.
  const std::vector<int32_t>* at(int64_t i) {
    const int64_t k = lists_.length() == 1 ? 0 : i;
    if (lists_.dtype().is_null() || lists_.is_null(k)) return nullptr;
    if (k == current_) return &days_;
    current_ = k;
    days_.clear();
    const int64_t* off = lists_.list_offsets();
    const Array& child = *lists_.child(0);
    for (int64_t j = off[k]; j < off[k + 1]; ++j) {
      if (child.dtype().is_null() || child.is_null(j)) throw ComputeError("nulls found in holiday list values");
      const int32_t d = child.values<int32_t>()[j];
      if (mask_[day_of_week(d)]) days_.push_back(d);
    }
    std::sort(days_.begin(), days_.end());
    days_.erase(std::unique(days_.begin(), days_.end()), days_.end());
    return &days_;
  }

 private:
  const Array& lists_;
  WeekMask mask_;
  int64_t current_ = -1;
  std::vector<int32_t> days_;
};

bool is_holiday(const std::vector<int32_t>& h, int64_t d) { return std::binary_search(h.begin(), h.end(), d); }
size_t first_ge(const std::vector<int32_t>& h, int64_t d, size_t from = 0) {
  return static_cast<size_t>(std::lower_bound(h.begin() + from, h.end(), d) - h.begin());
}
size_t first_gt(const std::vector<int32_t>& h, int64_t d, size_t from = 0) {
  return static_cast<size_t>(std::upper_bound(h.begin() + from, h.end(), d) - h.begin());
}

int64_t add_impl(int64_t date, int64_t n, const WeekMask& mask, int per_week, const std::vector<int32_t>& h) {
  int dow = day_of_week(date);
  if (n > 0) {
    const size_t begin = first_ge(h, date);
    date += (n / per_week) * 7;
    n %= per_week;
    const size_t temp = first_gt(h, date, begin);
    n += static_cast<int64_t>(temp - begin);
    const size_t from = temp;
    while (n > 0) {
      ++date;
      dow = dow == 6 ? 0 : dow + 1;
      if (mask[dow] && !std::binary_search(h.begin() + from, h.end(), date)) --n;
    }
    return date;
  }
  const size_t end = first_gt(h, date);
  date += (n / per_week) * 7;
  n %= per_week;
  const size_t temp = static_cast<size_t>(std::lower_bound(h.begin(), h.begin() + end, date) - h.begin());
  n -= static_cast<int64_t>(end - temp);
  const size_t until = temp;
  while (n < 0) {
    --date;
    dow = dow == 0 ? 6 : dow - 1;
    if (mask[dow] && !std::binary_search(h.begin(), h.begin() + until, date)) ++n;
  }
  return date;
}

int64_t roll_start(int64_t date, const std::string& roll, const WeekMask& mask, const std::vector<int32_t>& h) {
  auto off_day = [&](int64_t d) { return !mask[day_of_week(d)] || is_holiday(h, d); };
  if (roll == "raise") {
    if (off_day(date))
      throw ComputeError(err_msg("date ", format_date(static_cast<int32_t>(date)),
                                 " is not a business date; use `roll` to roll forwards (or backwards) to the next (or "
                                 "previous) valid date."));
  } else if (roll == "forward") {
    while (off_day(date)) ++date;
  } else if (roll == "backward") {
    while (off_day(date)) --date;
  } else {
    throw InvalidOperationError(err_msg("`roll` must be one of {'raise', 'forward', 'backward'}, got '", roll, "'"));
  }
  return date;
}

int64_t count_impl(int64_t start, int64_t end, const WeekMask& mask, int per_week, const std::vector<int32_t>& h) {
  const bool swapped = start > end;
  if (swapped) {
    std::swap(start, end);
    ++start, ++end;
  }
  const size_t hb = first_ge(h, start);
  const size_t he = first_ge(h, end, hb);
  int dow = day_of_week(start);
  const int64_t whole_weeks = (end - start) / 7;
  int64_t count = -static_cast<int64_t>(he - hb) + whole_weeks * per_week;
  start += whole_weeks * 7;
  while (start < end) {
    if (mask[dow]) ++count;
    ++start;
    dow = dow == 6 ? 0 : dow + 1;
  }
  return swapped ? -count : count;
}

int64_t broadcast(std::initializer_list<const Array*> arrays, const char* what) {
  int64_t n = 1;
  for (const Array* a : arrays)
    if (a->length() != 1) n = a->length();
  for (const Array* a : arrays)
    if (a->length() != 1 && a->length() != n)
      throw ShapeError(err_msg("arguments for `", what, "` have different lengths (", a->length(), " != ", n, ")"));
  return n;
}

// Dates of a Date array (as is) or of a Datetime's local time.
ArrayRef local_dates(const Array& a, const char* what) {
  if (a.dtype().id() == TypeId::Date) return share(a);
  if (a.dtype().id() == TypeId::Datetime) return cast(*to_local_clock(a), DataType::date());
  throw InvalidOperationError(err_msg("expected date or datetime, got ", a.dtype().short_name(), " in `", what, "`"));
}

}  // namespace

ArrayRef add_business_days(const Array& start, const Array& n_in, const WeekMask& mask, const Array& holidays,
                           const std::string& roll) {
  require_mask(mask);
  const DataType& t = start.dtype();
  if (t.is_null()) return make_null_array(DataType::date(), std::max(start.length(), n_in.length()));
  if (t.id() == TypeId::Datetime) {
    // The date part moves; the time of day stays (local time for a zoned value).
    ArrayRef local = to_local_clock(start);
    ArrayRef days = add_business_days(*cast(*local, DataType::date()), n_in, mask, holidays, roll);
    const int64_t upd = units_per_day(t.time_unit());
    const int64_t len = days->length();
    PrimitiveBuilder<int64_t> b(DataType::datetime(t.time_unit()), len);
    for (int64_t i = 0; i < len; ++i) {
      const int64_t k = local->length() == 1 ? 0 : i;
      if (days->is_null(i) || local->is_null(k)) {
        b.push_null();
        continue;
      }
      const int64_t v = local->values<int64_t>()[k];
      b.push(int64_t{days->values<int32_t>()[i]} * upd + (v - floor_div(v, upd) * upd));
    }
    ArrayRef naive = b.finish();
    if (!t.time_zone()) return naive;
    return from_local_clock(*naive, *t.time_zone(), tz::Ambiguous::Raise, tz::NonExistent::Raise);
  }
  if (t.id() != TypeId::Date) throw InvalidOperationError(err_msg("expected date or datetime, got ", t.short_name()));
  if (!n_in.dtype().is_integer() && !n_in.dtype().is_null())
    throw InvalidOperationError(err_msg("expected Int64, Int32, UInt64, or UInt32, got ", n_in.dtype().short_name()));
  const int64_t len = broadcast({&start, &n_in, &holidays}, "add_business_days");
  ArrayRef n = n_in.dtype().is_null() ? make_null_array(DataType::int64(), n_in.length()) : cast(n_in, DataType::int64());
  Holidays hol(holidays, mask);
  const int per_week = static_cast<int>(std::count(mask.begin(), mask.end(), true));
  PrimitiveBuilder<int32_t> b(DataType::date(), len);
  for (int64_t i = 0; i < len; ++i) {
    const std::vector<int32_t>* h = hol.at(i);
    const int64_t si = start.length() == 1 ? 0 : i, ni = n->length() == 1 ? 0 : i;
    if (!h || start.is_null(si) || n->is_null(ni)) {
      b.push_null();
      continue;
    }
    const int64_t d = roll_start(start.values<int32_t>()[si], roll, mask, *h);
    b.push(static_cast<int32_t>(add_impl(d, n->values<int64_t>()[ni], mask, per_week, *h)));
  }
  return b.finish();
}

ArrayRef is_business_day(const Array& dates_in, const WeekMask& mask, const Array& holidays) {
  require_mask(mask);
  if (dates_in.dtype().is_null()) return make_null_array(DataType::boolean(), dates_in.length());
  ArrayRef dates = local_dates(dates_in, "is_business_day");
  const int64_t len = broadcast({dates.get(), &holidays}, "is_business_day");
  Holidays hol(holidays, mask);
  BooleanBuilder b(len);
  for (int64_t i = 0; i < len; ++i) {
    const std::vector<int32_t>* h = hol.at(i);
    const int64_t k = dates->length() == 1 ? 0 : i;
    if (!h || dates->is_null(k)) {
      b.push_null();
      continue;
    }
    const int32_t d = dates->values<int32_t>()[k];
    b.push(mask[day_of_week(d)] && !is_holiday(*h, d));
  }
  return b.finish();
}

ArrayRef business_day_count(const Array& start, const Array& end, const WeekMask& mask, const Array& holidays) {
  require_mask(mask);
  for (const Array* a : {&start, &end})
    if (a->dtype().id() != TypeId::Date && !a->dtype().is_null())
      throw InvalidOperationError(err_msg("expected Date, got ", a->dtype().short_name(), " in `business_day_count`"));
  const int64_t len = broadcast({&start, &end, &holidays}, "business_day_count");
  Holidays hol(holidays, mask);
  const int per_week = static_cast<int>(std::count(mask.begin(), mask.end(), true));
  PrimitiveBuilder<int32_t> b(DataType::int32(), len);
  for (int64_t i = 0; i < len; ++i) {
    const std::vector<int32_t>* h = hol.at(i);
    const int64_t si = start.length() == 1 ? 0 : i, ei = end.length() == 1 ? 0 : i;
    if (!h || start.dtype().is_null() || end.dtype().is_null() || start.is_null(si) || end.is_null(ei)) {
      b.push_null();
      continue;
    }
    b.push(static_cast<int32_t>(count_impl(start.values<int32_t>()[si], end.values<int32_t>()[ei], mask, per_week, *h)));
  }
  return b.finish();
}

}  // namespace frazil::compute
