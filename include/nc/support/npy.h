/* npy.h: read and write NumPy .npy tensor files.
 *
 * .npy is how users hand inputs to nc-run and read results back in Python:
 * np.save/np.load on their side, these functions on ours. Reading accepts
 * format versions 1.0, 2.0 and 3.0, little- and big-endian element types
 * (b1 i1 u1 i2 u2 i4 u4 i8 u8 f2 f4 f8) and C order; everything else
 * (Fortran order, structured or object arrays, malformed or truncated files)
 * is refused with a one-line message naming the file and the problem.
 * Reading never allocates more than the input's size implies.
 * Writing produces version 1.0 files byte-identical to NumPy's np.save.
 */
#ifndef NC_SUPPORT_NPY_H
#define NC_SUPPORT_NPY_H

#include "nc/support/base.h"
#include "nc/support/tensor.h"

/** Reads the .npy file at `path`. On failure returns NULL and writes a
 * one-line message ("<path>: <problem>") into err[0..errlen) (err may be
 * NULL). Booleans are normalised to 0/1; big-endian data is byte-swapped. */
NC_GIVE nc_tensor *nc_npy_read(NC_KEEP const char *path, char *err, size_t errlen);

/** Same as nc_npy_read() for a .npy image held in memory; `name` (may be
 * NULL, meaning "<memory>") stands for the file name in error messages. */
NC_GIVE nc_tensor *nc_npy_read_from_memory(NC_KEEP const void *buf, size_t len,
                                           NC_KEEP const char *name, char *err, size_t errlen);

/** Writes `t` to `path` as a version 1.0 .npy file in NumPy's exact layout.
 * i4/i2 are written as '|i1' and u4/u2 as '|u1' (NumPy has no sub-byte
 * integers); bf16 has no NumPy type and is refused. Returns false with a
 * message in err on failure (a partially written file is removed). */
bool nc_npy_write(NC_KEEP const char *path, NC_KEEP const nc_tensor *t, char *err, size_t errlen);

#endif
