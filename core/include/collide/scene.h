/* collide/scene.h — Scene files: a game's boxes, frame after frame, dumped to a file that
 * collide's harness reads back bit for bit. Part of the public API, included by collide.h
 * (which defines the types it uses); include collide.h, not this file. docs/scenes.md is the
 * format's full description with examples; this header is its reference.
 *
 * A scene holds `frames` frames of `count` boxes each (the same count in every frame: box i of
 * one frame is box i of the next, moved), all 2D or all 3D, and, from version 2 on, which boxes
 * are static (a level's tiles and walls: see col_broadphase_pairs_static). Two forms; the
 * readers read versions 1 and 2 of both, the writers write version 1 when no marks are given
 * (readable by every reader of version 1) and version 2 with marks:
 *
 * TEXT (made to be read and written by hand or by any language):
 *   line 1        "collide-scene 1 2d" or "collide-scene 1 3d" (magic, version, dims), words
 *                 separated by spaces or tabs;
 *   a box         one line of 2 x dims numbers: min x, min y, [min z,] max x, max y, [max z];
 *   "---"         a line that ends one frame and starts the next;
 *   "static ..."  (version 2) box indices and ranges "lo-hi" (decimal, lo <= hi) of static
 *                 boxes, separated by blanks, on any number of such lines anywhere after the
 *                 header (indices past the last box are an error; repeats are fine);
 *   ignored       empty lines, lines of blanks, lines whose first non-blank is '#';
 *   line ends     "\n" or "\r\n"; the last line may lack its end.
 *   A number is what C's strtof reads in the "C" locale (decimal, hexadecimal "0x1.8p+3",
 *   "inf", "-inf", "infinity"; case-insensitive), at most 63 characters, read the same whatever
 *   the program's locale. A decimal that overflows a float ("1e39") is an error; one that
 *   underflows rounds (to a subnormal or zero) as strtof does. The writer writes every float
 *   with 9 significant digits ("%.9g", always with '.'), which reads back to the same bits:
 *   -0 as "-0", subnormals, FLT_MAX, "inf", "-inf".
 * BINARY (compact, exact, fast):
 *   bytes 0-7     the magic "COLSCENE";
 *   bytes 8-23    four unsigned 32-bit little-endian words: version (1 or 2), dims (2 or 3),
 *                 box count, frame count;
 *   version 2     a 32-bit little-endian flags word (bit 0: static marks follow; every other
 *                 bit 0), then with bit 0 one bit a box (box i: bit i % 8 of byte i / 8, 1 =
 *                 static), its last byte's unused bits 0 and zero bytes to a multiple of 4;
 *   then          per frame, 2 x dims arrays of `count` float32 (IEEE 754 binary32 bits,
 *                 little-endian): min x, min y, [min z,] max x, max y, [max z] (col_boxes'
 *                 order); the file ends exactly there.
 *   Little-endian whatever the host: the reader and writer assemble the bytes themselves, so
 *   a file written on s390x reads on x86-64 and back.
 *
 * Rules for both forms (a file breaking one is refused with COL_ERR_FORMAT, and a writer given
 * such boxes writes nothing):
 *   - dims 2 or 3; at least one frame; every frame of the same box count;
 *   - no NaN coordinate (a NaN box never pairs: in a game's dump it is a bug of the dump);
 *   - no inverted box: min <= max on every axis (-0 and +0 are equal; a point or a flat box
 *     is fine, as are infinite bounds: -inf..inf);
 *   - count <= UINT32_MAX (the broadphases' indices), frames <= COL_SCENE_MAX_FRAMES (2^20)
 *     and frames x max(count, 1) x 2 x dims <= COL_SCENE_MAX_FLOATS (2^28 floats: 1 GiB; an
 *     empty frame counts as one box), checked from the binary header before anything is
 *     allocated, so a corrupt count cannot ask for terabytes;
 *   - the reader reads at most COL_SCENE_MAX_BYTES (16 GiB) of a file.
 */
#ifndef COLLIDE_SCENE_H
#define COLLIDE_SCENE_H

#include <stdio.h>

/* ---------------------------------------------------------------------------------------- */
/* Scene files                                                                              */
/* ---------------------------------------------------------------------------------------- */

#define COL_SCENE_VERSION    2u /* the newest version written (files with static marks) */
#define COL_SCENE_MAX_FLOATS ((uint64_t)1 << 28)
#define COL_SCENE_MAX_FRAMES ((uint64_t)1 << 20)
#define COL_SCENE_MAX_BYTES  ((uint64_t)1 << 34)

typedef enum col_scene_form {
  COL_SCENE_TEXT = 0,
  COL_SCENE_BINARY = 1,
} col_scene_form;

/* A scene read from a file. `data` holds frames x 2 x dims arrays of `count` floats, frame
 * after frame, each frame's arrays in col_boxes' order (min x, min y, [min z,] max x, ...);
 * col_scene_frame gives a frame as a col_boxes. Owned by the scene: release it with
 * col_scene_destroy. `form` is the form the file had. */
typedef struct col_scene {
  unsigned dims;
  size_t count, frames;
  col_scene_form form;
  float *data;
  /* count bytes, 1 for a static box and 0 for the others (version 2 files that mark at least
   * one box), or NULL when no box is marked (every version 1 file). Owned by the scene; a scene
   * built by hand sets it (or NULL) itself. */
  uint8_t *is_static;
} col_scene;

/* Where and why a file was refused (filled by the readers and writers on any error, zeroed on
 * success). `line`: the text form's line (1 is the header), 0 in the binary form and for
 * errors of the whole file; `offset`: the byte offset in the file of the line or value at
 * fault (for a binary file, of the first byte of the word or float); `reason`: a static
 * description ("inverted box (min > max)", "truncated", ...); `message`: the whole sentence,
 * "line 7 (byte 143): inverted box (min > max) on y, box 3 of frame 2". */
typedef struct col_scene_error {
  uint64_t line, offset;
  const char *reason;
  char message[200];
} col_scene_error;

/* Reads a whole scene file (either form, told by its first bytes) from memory, an open stream
 * (from its current position to its end) or a path. On success *scene is filled (release it
 * with col_scene_destroy). On error *scene is left untouched, nothing stays allocated and
 * `error` (may be NULL) says where and why. Errors: COL_ERR_NULL (bytes with size > 0, file,
 * path, scene), COL_ERR_VERSION (a scene file of another version: its magic is right, its
 * version is not 1 or 2), COL_ERR_FORMAT (a file breaking the format: wrong magic, dims not
 * 2 or 3, a line of the wrong number of numbers (a 3D box in a 2D file), something that is not
 * a number, NaN, an inverted box, frames of different box counts, a truncated file or bytes
 * after its end, counts over the limits above, a "static" line in a version 1 text file, a
 * static mark that is not an index or a range or lies past the last box, unknown flags or
 * nonzero padding after a binary file's marks), COL_ERR_IO (the stream or path could not be
 * read; `reason` says so), COL_ERR_MEMORY. */
col_status col_scene_read_memory(const void *bytes, size_t size, col_scene *scene,
                                 col_scene_error *error);
col_status col_scene_read_file(FILE *file, col_scene *scene, col_scene_error *error);
col_status col_scene_read_path(const char *path, col_scene *scene, col_scene_error *error);

/* Frame `frame` of a scene as a box set pointing into the scene's data (valid until
 * col_scene_destroy). Errors: COL_ERR_NULL (scene, out), COL_ERR_SIZE (frame >= frames). */
col_status col_scene_frame(const col_scene *scene, size_t frame, col_boxes *out);

/* Releases the scene's data and zeroes it (NULL or an already destroyed scene: nothing). */
void col_scene_destroy(col_scene *scene);

/* Checks a scene against the rules above (a scene from the readers always passes; one built
 * by hand may not): COL_OK, COL_ERR_NULL (scene, or data with a count > 0) or COL_ERR_FORMAT
 * with `error` naming the first box at fault (line 0, offset 0). */
col_status col_scene_validate(const col_scene *scene, col_scene_error *error);

/* Writes `nframes` frames (frames[0 .. nframes-1], every one of the same dims and count) in
 * the given form to a stream or a path (created or truncated). The boxes are checked first:
 * nothing is written when they break a rule (COL_ERR_FORMAT, `error` naming the frame and
 * box), so a written file always reads back, to the same bits. Errors: COL_ERR_NULL (file,
 * path, frames, an array with count > 0), COL_ERR_SIZE (nframes 0, dims not 2 or 3, frames of
 * different dims or counts, counts over the limits), COL_ERR_ARGUMENT (form), COL_ERR_FORMAT,
 * COL_ERR_IO (a write failed: the file is then incomplete; the path form removes it). */
col_status col_scene_write_file(FILE *file, col_scene_form form, const col_boxes *frames,
                                size_t nframes, col_scene_error *error);
col_status col_scene_write_path(const char *path, col_scene_form form, const col_boxes *frames,
                                size_t nframes, col_scene_error *error);
/* The same with static marks: is_static[0, count) (nonzero: static; the frames' box count of
 * them), written as version 2 (NULL: version 1, as the calls above). A box marked in the file
 * reads back as 1 in col_scene's is_static. Errors as col_scene_write_file. */
col_status col_scene_write_file_static(FILE *file, col_scene_form form, const col_boxes *frames,
                                       size_t nframes, const uint8_t *is_static,
                                       col_scene_error *error);
col_status col_scene_write_path_static(const char *path, col_scene_form form,
                                       const col_boxes *frames, size_t nframes,
                                       const uint8_t *is_static, col_scene_error *error);

#endif
