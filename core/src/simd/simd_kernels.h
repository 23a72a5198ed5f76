/* Instantiates every kernel family for the ISA defined by the including file, and that ISA's
 * backend table: `col__backend_<isa>` natively, `col__backend_<isa>_emu` when built with
 * SIMDE_NO_NATIVE (COL_EMULATED). The build names the ISA (-DCOL_ISA=<file name>); its name,
 * CPU test and lanes come from the file's collide-isa line (isa_list.h, backend.h). */
#ifndef COLLIDE_SIMD_KERNELS_H
#define COLLIDE_SIMD_KERNELS_H

#include "simd_common.h"

#include "simd_aabb.h"
#include "simd_circle.h"
#include "simd_mask.h"
#include "simd_mtd.h"
#include "simd_sap.h"
#include "simd_slab.h"
#include "simd_sprite.h"
#include "simd_sweep.h"

#ifndef COL_ISA
#error "an ISA file is built with -DCOL_ISA=<its name> (the Makefile does it)"
#endif
_Static_assert(COL_W == COL_CAT(col__isa_lanes_, COL_ISA),
               "COL_W must equal lanes= of the file's collide-isa line");

#ifdef COL_EMULATED
#define COL_TABLE           COL_CAT(COL_CAT(col__backend_, COL_ISA), _emu)
#define COL_TABLE_NAME      COL_STR(COL_ISA) "-emu"
#define COL_TABLE_SUPPORTED col__cpu_any
#define COL_TABLE_KIND      COL_BACKEND_EMULATED
#else
#define COL_TABLE           COL_CAT(col__backend_, COL_ISA)
#define COL_TABLE_NAME      COL_STR(COL_ISA)
#define COL_TABLE_SUPPORTED COL_CAT(col__cpu_has_, COL_ISA)
#define COL_TABLE_KIND      COL_BACKEND_NATIVE
#endif

const col__backend COL_TABLE = {
    .name = COL_TABLE_NAME,
    .width = COL_W,
    .kind = COL_TABLE_KIND,
    .supported = COL_TABLE_SUPPORTED,
    .kernels = COL_KERNEL_ALL,
    .k =
        {
            .aabb2_query = simd_aabb2_query,
            .aabb2_query_aos = simd_aabb2_query_aos,
            .aabb3_query = simd_aabb3_query,
            .aabb2_mtd_batch = simd_mtd_batch,
            .sprite_overlap = simd_sprite_overlap,
            .mask_overlap = simd_mask_overlap,
            .circle_overlap_batch = simd_circle_overlap_batch,
            .elastic_batch = simd_elastic_batch,
            .segment_spheres = simd_segment_spheres,
            .sap_run = simd_sap_run,
            .segment_spheres_robust = simd_segment_spheres_robust,
            .sweep_aabb2 = simd_sweep_aabb2,
            .sweep_aabb3 = simd_sweep_aabb3,
        },
    .sap_sweep = simd_sap_sweep,
    .sap_unpack = COL_SAP_UNPACK,
};

#endif
