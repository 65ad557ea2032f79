// Runtime dispatch of the hottest kernels to AVX2 (x86-64-v3) in builds meant to run
// anywhere (FRAZIL_ARCH=baseline, which portable wheels use): a function marked
// FRAZIL_MULTIVERSION is compiled twice, for x86-64-v3 and for the baseline, and the
// loader picks one by the CPU (GCC target_clones, an ifunc). Builds for the building
// machine (FRAZIL_ARCH=auto/native/x86-64-v3) compile everything for it and need no clones.
//
// Mark non-template entry points: the templates they call are inlined into each clone.
#pragma once

#if defined(FRAZIL_RUNTIME_DISPATCH) && defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define FRAZIL_MULTIVERSION __attribute__((target_clones("arch=x86-64-v3", "default"), flatten))
#else
#define FRAZIL_MULTIVERSION
#endif
