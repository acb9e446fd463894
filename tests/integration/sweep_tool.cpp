// Helpers for the sweep tests (tests/integration/test_sweep.sh):
//   sweep_tool compare A.h5 B.h5     exit 0 when every dataset of A equals B's bit for bit
//                                    (/metrics/wall_seconds aside), and the identity attributes
//                                    (spec, spec_hash, points_total, per_job, axes) agree
//   sweep_tool journal-count SPEC FOLDER [per-job]
//                                    prints how many point records the journals hold
// Datasets are compared generically (every dataset in either file, read in its own type), so a
// dataset added later is covered without changing this tool.
#include <hdf5.h>

#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "mosim/hdf5.hpp"
#include "mosim/sweep_journal.hpp"

namespace {

using mosim::h5::Handle;
using mosim::h5::check;

herr_t collectDataset(hid_t, const char* name, const H5O_info_t* info, void* out) {
  if (info->type == H5O_TYPE_DATASET) static_cast<std::set<std::string>*>(out)->insert(name);
  return 0;
}

std::set<std::string> datasetsOf(hid_t file) {
  std::set<std::string> names;
  check(H5Ovisit(file, H5_INDEX_NAME, H5_ITER_INC, collectDataset, &names), "H5Ovisit");
  return names;
}

/// The dataset's contents as bytes: numbers in their stored type, strings as their characters.
std::string contents(hid_t file, const std::string& name) {
  const Handle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose, "H5Dopen2");
  const Handle type(H5Dget_type(dataset.get()), H5Tclose, "H5Dget_type");
  if (H5Tis_variable_str(type.get()) > 0) {
    const std::size_t slash = name.rfind('/');
    const Handle group(H5Gopen2(file, slash == std::string::npos ? "/" : name.substr(0, slash).c_str(), H5P_DEFAULT),
                       H5Gclose, "H5Gopen2");
    std::string joined;
    for (const std::string& s : mosim::h5::readStrings(group.get(), name.substr(slash + 1)))
      joined += s + '\0';
    return joined;
  }
  const Handle space(H5Dget_space(dataset.get()), H5Sclose, "H5Dget_space");
  const hssize_t elements = H5Sget_simple_extent_npoints(space.get());
  std::string bytes(static_cast<std::size_t>(elements) * H5Tget_size(type.get()), '\0');
  if (!bytes.empty())
    check(H5Dread(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()), "H5Dread");
  // The shape matters too: a 12 x 3 matrix is not a 36 x 1 one.
  int rank = H5Sget_simple_extent_ndims(space.get());
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  std::string shape;
  for (hsize_t d : dims) shape += std::to_string(d) + "x";
  return shape + ":" + bytes;
}

int compare(const std::string& a_path, const std::string& b_path) {
  const Handle a = mosim::h5::openFile(a_path), b = mosim::h5::openFile(b_path);
  int differences = 0;
  for (const char* attribute : {"spec", "spec_hash"}) {
    if (mosim::h5::readStringAttribute(a.get(), attribute) != mosim::h5::readStringAttribute(b.get(), attribute)) {
      std::printf("attribute %s differs\n", attribute);
      ++differences;
    }
  }
  for (const char* attribute : {"points_total", "per_job"}) {
    if (mosim::h5::readIntAttribute(a.get(), attribute) != mosim::h5::readIntAttribute(b.get(), attribute)) {
      std::printf("attribute %s differs\n", attribute);
      ++differences;
    }
  }
  if (mosim::h5::readStringListAttribute(a.get(), "axes") != mosim::h5::readStringListAttribute(b.get(), "axes")) {
    std::printf("attribute axes differs\n");
    ++differences;
  }
  const std::set<std::string> names_a = datasetsOf(a.get()), names_b = datasetsOf(b.get());
  if (names_a != names_b) {
    std::printf("the files hold different datasets\n");
    ++differences;
  }
  std::size_t compared = 0;
  for (const std::string& name : names_a) {
    if (name == "metrics/wall_seconds" || !names_b.count(name)) continue;
    ++compared;
    if (contents(a.get(), name) != contents(b.get(), name)) {
      std::printf("dataset %s differs\n", name.c_str());
      ++differences;
    }
  }
  std::printf("%zu datasets compared, %d differences\n", compared, differences);
  return differences == 0 && compared > 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 3 && args[0] == "compare") return compare(args[1], args[2]);
    if ((args.size() == 3 || args.size() == 4) && args[0] == "journal-count") {
      const mosim::sweep::SweepSpec spec = mosim::sweep::readSweepSpec(args[1]);
      const mosim::sweep::JournalHeader header{spec.hash(), {}, args.size() == 4};
      std::printf("%zu\n", mosim::sweep::readJournals(args[2], header).points.size());
      return 0;
    }
    std::fprintf(stderr, "usage: sweep_tool compare A.h5 B.h5 | journal-count SPEC FOLDER [per-job]\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sweep_tool: %s\n", e.what());
  }
  return 2;
}
