// Random numbers that are the same on every machine for a given seed: std::mt19937_64 (whose
// output the C++ standard fixes) and our own transformations, never std:: distributions (their
// algorithms differ between standard libraries) nor libm's log and exp (whose last bit may differ
// between libm versions and CPU-specific code paths). Only +, -, *, / and exact operations
// (frexp, ldexp) are used, which IEEE 754 makes identical everywhere (builds use
// -ffp-contract=off, so nothing is fused).
#pragma once

#include <cstdint>
#include <random>

namespace mosim::detail {

/// A uniform double in [0, 1): the top 53 bits of one draw.
inline double uniform01(std::mt19937_64& random) {
  return static_cast<double>(random() >> 11) * 0x1p-53;
}

/// Natural logarithm of a finite x > 0, within a few units in the last place.
double portableLog(double x);
/// e^x for finite x (underflows to 0 and overflows to infinity like exp).
double portableExp(double x);

/// An exponential gap with the given rate, by inversion: -ln(1 - u) / rate.
inline double exponentialGap_s(std::mt19937_64& random, double rate_per_s) {
  return -portableLog(1.0 - uniform01(random)) / rate_per_s;
}

/// SplitMix64's finaliser: a well-mixed 64-bit value from any 64-bit input.
inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

}  // namespace mosim::detail
