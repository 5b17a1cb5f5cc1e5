/* libnc.c: the one source of libnc.so. The library is the layers' static
 * archives linked whole (utils/libnc/CMakeLists.txt); a shared library needs
 * at least one source of its own, and this is it. Nothing to define here. */
