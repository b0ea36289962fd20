# Build-mode flags shared by the Cython core (a declarations-only .pxd:
# nothing is compiled or imported at run time for it).
#
# setup.py defines the C macro BURANO_DEBUG=1 when BURANO_DEBUG=1 is set in
# the environment at build time.  Cython 3 deprecates DEF/IF and
# compile_time_env, so the flag is read through a verbatim C block instead:
#
#     from burano_ai._build cimport BURANO_DEBUG_BUILD
#     if BURANO_DEBUG_BUILD:      # a C constant: the C compiler drops the
#         ...                     # dead branch in release builds

cdef extern from *:
    """
    #ifdef BURANO_DEBUG
    #define BURANO_DEBUG_BUILD 1
    #else
    #define BURANO_DEBUG_BUILD 0
    #endif
    """
    const bint BURANO_DEBUG_BUILD
