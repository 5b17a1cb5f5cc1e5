#!/usr/bin/python3
# gen_npy.py: regenerates the NumPy-written .npy fixtures that npy_test.c
# checks nc against (run with Debian's /usr/bin/python3 from this directory).
# The tests themselves never need Python; these files are committed.
import numpy as np
import numpy.lib.format as fmt

# One file per dtype, shape (2, 3): nc must read them and write identical bytes.
for d in ['b1', 'i1', 'u1', 'i2', 'u2', 'i4', 'u4', 'i8', 'u8', 'f2', 'f4', 'f8']:
    a = np.arange(6).reshape(2, 3)
    if d == 'b1':
        a = a % 2
    elif d[0] in 'if':
        a = a - 2
    np.save('npy_%s.npy' % d, a.astype(d if d[1] == '1' else '<' + d))

# Byte order, versions, ranks and a Fortran-ordered file (which nc refuses).
np.save('npy_be_i8_scalar.npy', np.array(-5, dtype='>i8'))
np.save('npy_be_f2.npy', np.array([1.5, -2.0, 65504.0], dtype='>f2'))
np.save('npy_be_f8.npy', np.array([[0.25, -1e300], [3.0, 7.5]], dtype='>f8'))
np.save('npy_empty_b1.npy', np.zeros((0, 5), dtype='?'))
with open('npy_v2_i2.npy', 'wb') as f:
    fmt.write_array(f, np.array([-1, 0, 1], dtype='<i2'), version=(2, 0))
with open('npy_v3_u4.npy', 'wb') as f:
    fmt.write_array(f, np.array([[1], [4000000000]], dtype='<u4'), version=(3, 0))
np.save('npy_fortran.npy', np.asfortranarray(np.arange(6, dtype='<f8').reshape(2, 3)))
