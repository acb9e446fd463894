// The loading-time estimate: what a job spends once, before its first iteration.
//   loading = start-up + weight bytes / storage rate + set-up per worker
// Set-up per worker: TensorFlow's collective all-reduce resolves every gradient tensor's group
// and instance with the other workers before the first step (tensors x workers); PyTorch builds
// its process group and DDP reducer and broadcasts the initial weights (per worker).
// The constants are in calibration.hpp; experiments/characterization/README.md reports the error.
#include "characterize/calibration.hpp"
#include "characterize/models.hpp"

namespace mosim::detail {

double loadingTime_s(const ModelGraph& model, const JobSpec& job) {
  const double weights_s = 4 * model.totalParameters() / calibration::kStorage_Bps;
  const double setup_s = model.framework == Framework::TensorFlow
                             ? calibration::kTensorSetup_s * model.gradientTensors() * job.num_gpus
                             : calibration::kWorkerSetup_s * job.num_gpus;
  return calibration::kStartup_s + weights_s + setup_s;
}

}  // namespace mosim::detail
