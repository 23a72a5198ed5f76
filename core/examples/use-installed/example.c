/* collide from another project: include the installed header, link with pkg-config. */
#include <collide.h>
#include <stdio.h>

int main(void) {
  col_aabb2 a = {{0, 0}, {64, 64}}, b = {{32, 32}, {96, 96}};
  col_mtd m = col_aabb2_mtd(a, b); /* push a out of b: (-32, 0), x wins the tie */
  printf("mtd (%g, %g) hit %d\n", m.d.x, m.d.y, m.hit);
  printf("overlap %d, backend %s\n", col_aabb2_overlap(a, b, COL_TOUCH_OVERLAPS),
         col_backend_name());
  return 0;
}
