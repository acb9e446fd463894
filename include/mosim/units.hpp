// The one place where text with units becomes numbers: bandwidths are bytes per second inside mosim.
#pragma once

#include <string>
#include <string_view>

namespace mosim {

/// Bytes per second of one unit of a rate, e.g. "MiB/s" -> 1048576, "MB/s" -> 1e6, "Gbps" -> 1.25e8.
/// Accepted: B/s, kB/s (KB/s), MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s, bps, kbps (Kbps), Mbps,
/// Gbps, Tbps, and the same bit rates written kb/s, Mb/s, Gb/s, Tb/s. Case matters for B versus b.
/// Throws std::invalid_argument naming the unit when it is not one of these.
double rateUnit_Bps(std::string_view unit);

/// Parses a bandwidth such as "463 MiB/s", "463MB/s", "5 Gbps" or "25 GB/s" into bytes per second.
/// A number without a unit, a negative, NaN or infinite value is an error (std::invalid_argument).
double parseBandwidth_Bps(std::string_view text);

/// Formats bytes per second with a readable decimal unit, e.g. 4.63e8 -> "463 MB/s".
std::string formatBandwidth(double rate_Bps);

/// Parses a finite number; throws std::invalid_argument on anything else (including trailing text).
double parseNumber(std::string_view text);

}  // namespace mosim
