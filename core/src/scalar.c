/* The scalar backend: the reference source, built with -fno-tree-vectorize (see the
 * Makefile) so that it really is scalar: the baseline every speedup is measured against. */
#define REF_TABLE     col__backend_scalar
#define REF_NAME      "scalar"
#define REF_SUPPORTED col__cpu_any
#define REF_KIND      COL_BACKEND_REFERENCE
#include "ref_backend.h"
