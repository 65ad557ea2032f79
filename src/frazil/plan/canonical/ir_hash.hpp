// Shallow hashing and equality of IR nodes: a node's own payload (its kind, its
// expressions, scan source, join options, ...), never its input plans, which callers
// contribute as canonical ids. How an expression is hashed and compared is the caller's
// choice (CanonicalIRMap uses canonical expression ids plus the output name).
//
// Contract: ir_equal_shallow(a, b) implies equal hashes. The hash covers a subset of what
// equality compares, never more.
#pragma once

#include <cstdint>

#include "frazil/plan/ir.hpp"

namespace frazil::plan {

class ExprIRHasher {
 public:
  virtual ~ExprIRHasher() = default;
  virtual uint64_t hash(const ExprIR& e) = 0;
  virtual bool equal(const ExprIR& a, const ExprIR& b) = 0;
};

// Both follow from the payload's fields() (plan/ir.hpp): a field added to a payload is
// hashed and compared without being listed here. Identity of the sources: a DataFrameScan
// is the same DataFrame object (pointer); a file Scan is the same format, paths and reader
// options (by value when they can be compared).
uint64_t hash_excluding_inputs(const IR& ir, ExprIRHasher& exprs);
bool ir_equal_shallow(const IR& a, const IR& b, ExprIRHasher& exprs);

}  // namespace frazil::plan
