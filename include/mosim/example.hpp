// The built-in example: what `mosim run` simulates with no input files.
#pragma once

#include <memory>

#include "mosim/job.hpp"
#include "mosim/profile.hpp"

namespace mosim {

/// 40 jobs over the paper's twelve models, Poisson arrivals at 0.005/s (the paper's rate), 1–8
/// GPUs each, log-normal durations from one minute to three hours. Fixed, compiled in.
Trace builtinExampleTrace();

/// Profiles estimated from published model sizes, without any profiling run, for the paper's
/// models on V100 GPUs (see estimated_profiles.cpp for the formulas and their sources):
///   T_comp  = 3 x forward FLOPs x per-GPU batch / (15.7 TFLOPS x 0.4 efficiency)
///   T_net   = 2(N-1)/N x 4 bytes x parameters / NIC bandwidth (ring all-reduce across servers)
///   C_j     = the rate whose per-server demand (Eq. 7) is exactly the NIC bandwidth
///   loading = 15 s + 4 bytes x parameters / 50 MB/s
/// Not calibrated: every split job saturates the NIC, which makes it a useful stress case for the
/// contention models (`--profile estimate`). Realistic profiles come from characterize.hpp.
std::unique_ptr<ProfileSource> estimatedProfiles(double nic_Bps);

}  // namespace mosim
