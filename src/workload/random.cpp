#include "workload/random.hpp"

#include <cmath>
#include <limits>

namespace mosim::detail {

namespace {

// ln 2 split so that k * kLn2High is exact for |k| < 2^21 (kLn2High has 32 significant bits).
constexpr double kLn2High = 0x1.62e42feep-1;
constexpr double kLn2Low = 0x1.a39ef35793c76p-33;
constexpr double kSqrtHalf = 0.70710678118654752440;

}  // namespace

double portableLog(double x) {
  if (!(x > 0)) return x == 0 ? -std::numeric_limits<double>::infinity()
                              : std::numeric_limits<double>::quiet_NaN();
  if (!std::isfinite(x)) return x;
  int exponent = 0;
  double mantissa = std::frexp(x, &exponent);  // x = mantissa * 2^exponent, mantissa in [0.5, 1)
  if (mantissa < kSqrtHalf) {
    mantissa *= 2;
    --exponent;
  }
  // ln(m) = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...), s = (m-1)/(m+1), |s| <= 0.1716: the terms
  // shrink by s^2 <= 0.0295 each, so 14 of them reach below 2^-70 of the first.
  const double s = (mantissa - 1) / (mantissa + 1);
  const double s2 = s * s;
  double power = s * s2;
  double series = 0;
  for (int k = 3; k <= 29; k += 2) {
    series += power / k;
    power *= s2;
  }
  const double log_mantissa = 2 * s + 2 * series;
  return exponent * kLn2High + (exponent * kLn2Low + log_mantissa);
}

double portableExp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.8) return std::numeric_limits<double>::infinity();
  if (x < -745.2) return 0;
  // x = k ln2 + r with |r| <= ln2 / 2; e^x = 2^k e^r, e^r by its Taylor series (27 terms reach
  // below 2^-80 for |r| <= 0.347).
  const double k = std::floor(x / (kLn2High + kLn2Low) + 0.5);
  const double r = (x - k * kLn2High) - k * kLn2Low;
  double term = 1, sum = 1;
  for (int n = 1; n <= 27; ++n) {
    term *= r / n;
    sum += term;
  }
  return std::ldexp(sum, static_cast<int>(k));
}

}  // namespace mosim::detail
