#include "mosim/hdf5.hpp"

#include <algorithm>
#include <array>
#include <mutex>

#include <fmt/format.h>

namespace mosim::h5 {
namespace {

// Chunks of about 64 KiB: large enough for deflate to work well, small enough that reading one
// point's row does not inflate megabytes.
constexpr std::size_t kChunkBytes = 1 << 16;
constexpr unsigned kDeflateLevel = 4;

/// HDF5 prints its error stack to stderr by default; we report errors as exceptions instead.
void silenceAutomaticErrorPrinting() {
  static std::once_flag once;
  std::call_once(once, [] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
}

herr_t collectDescription(unsigned, const H5E_error2_t* error, void* out) {
  // Walking downward, the last entry is the innermost: the actual cause.
  if (error->desc != nullptr) *static_cast<std::string*>(out) = error->desc;
  return 0;
}

template <class T>
hid_t fileType();
template <> hid_t fileType<double>() { return H5T_IEEE_F64LE; }
template <> hid_t fileType<std::int32_t>() { return H5T_STD_I32LE; }
template <> hid_t fileType<std::int64_t>() { return H5T_STD_I64LE; }
template <> hid_t fileType<std::uint8_t>() { return H5T_STD_U8LE; }
template <> hid_t fileType<std::uint32_t>() { return H5T_STD_U32LE; }
template <> hid_t fileType<std::uint64_t>() { return H5T_STD_U64LE; }

template <class T>
hid_t memoryType();
template <> hid_t memoryType<double>() { return H5T_NATIVE_DOUBLE; }
template <> hid_t memoryType<std::int32_t>() { return H5T_NATIVE_INT32; }
template <> hid_t memoryType<std::int64_t>() { return H5T_NATIVE_INT64; }
template <> hid_t memoryType<std::uint8_t>() { return H5T_NATIVE_UINT8; }
template <> hid_t memoryType<std::uint32_t>() { return H5T_NATIVE_UINT32; }
template <> hid_t memoryType<std::uint64_t>() { return H5T_NATIVE_UINT64; }

/// Variable-length UTF-8 strings (h5py reads them as str).
Handle stringType() {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "H5Tcopy");
  check(H5Tset_size(type.get(), H5T_VARIABLE), "H5Tset_size");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "H5Tset_cset");
  return type;
}

Handle simpleSpace(std::initializer_list<hsize_t> dims) {
  const std::vector<hsize_t> sizes(dims);
  return Handle(H5Screate_simple(static_cast<int>(sizes.size()), sizes.data(), nullptr), H5Sclose,
                "H5Screate_simple");
}

/// Creates a chunked, compressed dataset of `rows` x `columns` (columns 0: one-dimensional).
/// The first dimension is unlimited so that an empty dataset can still be chunked.
Handle createDataset(hid_t parent, const std::string& name, hid_t file_type,
                     std::size_t element_bytes, std::size_t rows, std::size_t columns,
                     bool shuffle) {
  const int rank = columns == 0 ? 1 : 2;
  const std::array<hsize_t, 2> dims{rows, columns};
  const std::array<hsize_t, 2> max_dims{H5S_UNLIMITED, columns};
  Handle space(H5Screate_simple(rank, dims.data(), max_dims.data()), H5Sclose, "H5Screate_simple");

  const std::size_t row_bytes = element_bytes * std::max<std::size_t>(columns, 1);
  const std::size_t chunk_rows =
      std::clamp<std::size_t>(kChunkBytes / row_bytes, 1, std::max<std::size_t>(rows, 1));
  const std::array<hsize_t, 2> chunk{chunk_rows, columns};
  Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "H5Pcreate");
  check(H5Pset_chunk(properties.get(), rank, chunk.data()), "H5Pset_chunk");
  if (shuffle) check(H5Pset_shuffle(properties.get()), "H5Pset_shuffle");
  check(H5Pset_deflate(properties.get(), kDeflateLevel), "H5Pset_deflate");
  // No modification times in object headers: the same results give the same datasets.
  check(H5Pset_obj_track_times(properties.get(), false), "H5Pset_obj_track_times");
  return Handle(H5Dcreate2(parent, name.c_str(), file_type, space.get(), H5P_DEFAULT,
                           properties.get(), H5P_DEFAULT),
                H5Dclose, "H5Dcreate2");
}

Handle openDataset(hid_t parent, const std::string& name) {
  return Handle(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), H5Dclose,
                fmt::format("H5Dopen2 '{}'", name).c_str());
}

/// The dimensions of a dataset's dataspace.
std::vector<hsize_t> dimensionsOf(hid_t dataset) {
  Handle space(H5Dget_space(dataset), H5Sclose, "H5Dget_space");
  const int rank = static_cast<int>(check(H5Sget_simple_extent_ndims(space.get()), "H5Sget_simple_extent_ndims"));
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  check(H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr), "H5Sget_simple_extent_dims");
  return dims;
}

/// Frees the strings HDF5 allocated while reading variable-length data.
struct ReclaimStrings {
  hid_t type;
  hid_t space;
  std::vector<char*>& buffer;
  ~ReclaimStrings() { H5Dvlen_reclaim(type, space, H5P_DEFAULT, buffer.data()); }
};

Handle createAttribute(hid_t object, const std::string& name, hid_t type, hid_t space) {
  return Handle(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                fmt::format("H5Acreate2 '{}'", name).c_str());
}

Handle openAttribute(hid_t object, const std::string& name) {
  return Handle(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose,
                fmt::format("H5Aopen '{}'", name).c_str());
}

}  // namespace

hid_t check(hid_t id, const char* what) {
  if (id >= 0) return id;
  std::string cause = "failed";
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, collectDescription, &cause);
  H5Eclear2(H5E_DEFAULT);
  throw Error(fmt::format("HDF5 {}: {}", what, cause));
}

Handle& Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = other.id_;
    close_ = other.close_;
    other.id_ = -1;
  }
  return *this;
}

void Handle::close() {
  if (id_ < 0) return;
  const hid_t id = id_;
  id_ = -1;
  check(close_(id), "close");
}

void Handle::reset() noexcept {
  if (id_ >= 0 && close_ != nullptr) close_(id_);
  id_ = -1;
}

Handle createFile(const std::string& path) {
  silenceAutomaticErrorPrinting();
  Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "H5Pcreate");
  // The 1.8 file format: readable by every HDF5 since 1.8 (h5py, h5dump, MATLAB, ...).
  check(H5Pset_libver_bounds(access.get(), H5F_LIBVER_V18, H5F_LIBVER_V18), "H5Pset_libver_bounds");
  return Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()), H5Fclose,
                fmt::format("H5Fcreate '{}'", path).c_str());
}

Handle openFile(const std::string& path) {
  silenceAutomaticErrorPrinting();
  return Handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                fmt::format("H5Fopen '{}'", path).c_str());
}

Handle createGroup(hid_t parent, const std::string& name) {
  return Handle(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
                fmt::format("H5Gcreate2 '{}'", name).c_str());
}

Handle openGroup(hid_t parent, const std::string& name) {
  return Handle(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), H5Gclose,
                fmt::format("H5Gopen2 '{}'", name).c_str());
}

bool exists(hid_t parent, const std::string& name) {
  return check(H5Lexists(parent, name.c_str(), H5P_DEFAULT), "H5Lexists") > 0;
}

template <class T>
void writeVector(hid_t parent, const std::string& name, const std::vector<T>& values) {
  // Shuffling bytes by significance helps deflate on multi-byte numbers.
  Handle dataset = createDataset(parent, name, fileType<T>(), sizeof(T), values.size(), 0,
                                 sizeof(T) > 1);
  if (!values.empty())
    check(H5Dwrite(dataset.get(), memoryType<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
          "H5Dwrite");
  dataset.close();
}

template <class T>
std::vector<T> readVector(hid_t parent, const std::string& name) {
  Handle dataset = openDataset(parent, name);
  const std::vector<hsize_t> dims = dimensionsOf(dataset.get());
  if (dims.size() != 1) throw Error(fmt::format("HDF5 dataset '{}' is not one-dimensional", name));
  std::vector<T> values(dims[0]);
  if (!values.empty())
    check(H5Dread(dataset.get(), memoryType<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
          "H5Dread");
  return values;
}

template void writeVector(hid_t, const std::string&, const std::vector<double>&);
template void writeVector(hid_t, const std::string&, const std::vector<std::int32_t>&);
template void writeVector(hid_t, const std::string&, const std::vector<std::int64_t>&);
template void writeVector(hid_t, const std::string&, const std::vector<std::uint8_t>&);
template void writeVector(hid_t, const std::string&, const std::vector<std::uint32_t>&);
template void writeVector(hid_t, const std::string&, const std::vector<std::uint64_t>&);
template std::vector<double> readVector(hid_t, const std::string&);
template std::vector<std::int32_t> readVector(hid_t, const std::string&);
template std::vector<std::int64_t> readVector(hid_t, const std::string&);
template std::vector<std::uint8_t> readVector(hid_t, const std::string&);
template std::vector<std::uint32_t> readVector(hid_t, const std::string&);
template std::vector<std::uint64_t> readVector(hid_t, const std::string&);

void writeMatrix(hid_t parent, const std::string& name, const std::vector<std::uint32_t>& values,
                 std::size_t rows, std::size_t columns) {
  if (columns == 0 || values.size() != rows * columns)
    throw Error(fmt::format("HDF5 matrix '{}': {} values do not fill {} x {}", name, values.size(),
                            rows, columns));
  Handle dataset = createDataset(parent, name, H5T_STD_U32LE, sizeof(std::uint32_t), rows,
                                 columns, true);
  if (!values.empty())
    check(H5Dwrite(dataset.get(), H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
          "H5Dwrite");
  dataset.close();
}

std::vector<std::uint32_t> readMatrix(hid_t parent, const std::string& name, std::size_t& columns) {
  Handle dataset = openDataset(parent, name);
  const std::vector<hsize_t> dims = dimensionsOf(dataset.get());
  if (dims.size() != 2) throw Error(fmt::format("HDF5 dataset '{}' is not two-dimensional", name));
  columns = dims[1];
  std::vector<std::uint32_t> values(dims[0] * dims[1]);
  if (!values.empty())
    check(H5Dread(dataset.get(), H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
          "H5Dread");
  return values;
}

void writeStrings(hid_t parent, const std::string& name, const std::vector<std::string>& values) {
  const Handle type = stringType();
  Handle dataset = createDataset(parent, name, type.get(), sizeof(hvl_t), values.size(), 0, false);
  std::vector<const char*> pointers;
  pointers.reserve(values.size());
  for (const std::string& value : values) pointers.push_back(value.c_str());
  if (!values.empty())
    check(H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()),
          "H5Dwrite");
  dataset.close();
}

std::vector<std::string> readStrings(hid_t parent, const std::string& name) {
  Handle dataset = openDataset(parent, name);
  const std::vector<hsize_t> dims = dimensionsOf(dataset.get());
  if (dims.size() != 1) throw Error(fmt::format("HDF5 dataset '{}' is not one-dimensional", name));
  std::vector<char*> buffer(dims[0], nullptr);
  if (buffer.empty()) return {};
  const Handle type = stringType();
  Handle space(H5Dget_space(dataset.get()), H5Sclose, "H5Dget_space");
  check(H5Dread(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()), "H5Dread");
  const ReclaimStrings reclaim{type.get(), space.get(), buffer};
  std::vector<std::string> values;
  values.reserve(buffer.size());
  for (const char* text : buffer) values.emplace_back(text == nullptr ? "" : text);
  return values;
}

void writeAttribute(hid_t object, const std::string& name, const std::string& value) {
  const Handle type = stringType();
  const Handle space(H5Screate(H5S_SCALAR), H5Sclose, "H5Screate");
  Handle attribute = createAttribute(object, name, type.get(), space.get());
  const char* text = value.c_str();
  check(H5Awrite(attribute.get(), type.get(), &text), "H5Awrite");
  attribute.close();
}

void writeAttribute(hid_t object, const std::string& name, std::int64_t value) {
  const Handle space(H5Screate(H5S_SCALAR), H5Sclose, "H5Screate");
  Handle attribute = createAttribute(object, name, H5T_STD_I64LE, space.get());
  check(H5Awrite(attribute.get(), H5T_NATIVE_INT64, &value), "H5Awrite");
  attribute.close();
}

void writeAttribute(hid_t object, const std::string& name, const std::vector<std::string>& values) {
  const Handle type = stringType();
  const Handle space = simpleSpace({values.size()});
  Handle attribute = createAttribute(object, name, type.get(), space.get());
  std::vector<const char*> pointers;
  for (const std::string& value : values) pointers.push_back(value.c_str());
  if (!values.empty()) check(H5Awrite(attribute.get(), type.get(), pointers.data()), "H5Awrite");
  attribute.close();
}

std::string readStringAttribute(hid_t object, const std::string& name) {
  const std::vector<std::string> values = readStringListAttribute(object, name);
  if (values.size() != 1) throw Error(fmt::format("HDF5 attribute '{}' is not a single string", name));
  return values.front();
}

std::int64_t readIntAttribute(hid_t object, const std::string& name) {
  const Handle attribute = openAttribute(object, name);
  std::int64_t value = 0;
  check(H5Aread(attribute.get(), H5T_NATIVE_INT64, &value), "H5Aread");
  return value;
}

std::vector<std::string> readStringListAttribute(hid_t object, const std::string& name) {
  const Handle attribute = openAttribute(object, name);
  const Handle space(H5Aget_space(attribute.get()), H5Sclose, "H5Aget_space");
  const hssize_t count = H5Sget_simple_extent_npoints(space.get());
  check(count, "H5Sget_simple_extent_npoints");
  std::vector<char*> buffer(static_cast<std::size_t>(count), nullptr);
  if (buffer.empty()) return {};
  const Handle type = stringType();
  check(H5Aread(attribute.get(), type.get(), buffer.data()), "H5Aread");
  const ReclaimStrings reclaim{type.get(), space.get(), buffer};
  std::vector<std::string> values;
  for (const char* text : buffer) values.emplace_back(text == nullptr ? "" : text);
  return values;
}

bool hasAttribute(hid_t object, const std::string& name) {
  return check(H5Aexists(object, name.c_str()), "H5Aexists") > 0;
}

}  // namespace mosim::h5
