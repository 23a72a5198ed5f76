# collide: the real scenes (included by the Makefile after mk/peers.mk, whose peer objects the
# check links, and before mk/test.mk and mk/bench.mk, which use REAL_SCENE_FILES).
#
# bench/scenes/real.list names scenes taken from data that Debian packages ship (meshes of
# CGAL's data, a game's level); install-deps.sh installs the packages, and make real-scenes
# converts each into build/scenes/<name>.scene (scripts/build/real-scene.py; docs/real-scenes.md).
# Nothing of the packages' data is kept in the repository.
REAL_SCENE_LIST := bench/scenes/real.list
REAL_SCENE_TOOL := scripts/build/real-scene.py
REAL_SCENE_DIR := build/scenes
# (A tree without bench/scenes/ has no real scenes.)
REAL_SCENES := $(if $(wildcard $(REAL_SCENE_LIST)),$(shell awk -F'|' '/^[a-z]/ { gsub(/[ \t]/, "", $$1); print $$1 }' $(REAL_SCENE_LIST)))
# The scene files, in the list's order (make bench SCENE=... and the check take them from here).
REAL_SCENE_FILES := $(REAL_SCENES:%=$(REAL_SCENE_DIR)/%.scene)
REAL_SCENE_PAIRS := $(REAL_SCENE_DIR)/pairs.txt
REAL_SCENE_DOC := docs/real-scenes.md

# A package added to the list is installed by the next build (install-deps.sh reads the list).
$(DEPS_STAMP): $(wildcard $(REAL_SCENE_LIST))

# The converter names a missing package (exit 3) or a source it cannot read (exit 1).
$(REAL_SCENE_DIR)/%.scene: $(REAL_SCENE_LIST) $(REAL_SCENE_TOOL) | $(DEPS_STAMP)
	@$(PYTHON) $(REAL_SCENE_TOOL) convert $* $@
# Each scene also depends on its package's file once installed (a new version of the package
# converts again): "name;file" per line, the file without its ":member".
REAL_SCENE_SOURCES := $(if $(wildcard $(REAL_SCENE_LIST)),$(shell awk -F'|' '/^[a-z]/ { gsub(/[ \t]/, "", $$1); gsub(/[ \t]/, "", $$3); sub(/:.*/, "", $$3); print $$1 ";" $$3 }' $(REAL_SCENE_LIST)))
$(foreach r,$(REAL_SCENE_SOURCES),$(eval $(REAL_SCENE_DIR)/$(word 1,$(subst ;, ,$r)).scene: $(wildcard $(word 2,$(subst ;, ,$r)))))

.PHONY: real-scenes real-scenes-check real-scenes-doc
real-scenes: $(REAL_SCENE_FILES)

# collide-real-pairs (tools/real/): every algorithm and peer structure against brute force on
# each real scene, both touch rules; it writes the judge's pair counts for the docs table.
REAL_PAIRS_BIN := $(O)/collide-real-pairs
$(O)/obj/tools/real/%.o: tools/real/%.c $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Ibench -MMD -MP -c $< -o $@
$(REAL_PAIRS_BIN): $(O)/obj/tools/real/real_pairs.o $(PEER_OBJ) $(LIB)
	$(CXX) $(CXXFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $^ $(PEER_LIBS) -lm -o $@

# docs/real-scenes.md's table from the list, the scene files and the pair counts the check
# wrote (real-scenes-check compares them).
real-scenes-doc: $(REAL_SCENE_FILES)
	@test -f $(REAL_SCENE_PAIRS) || { echo "real-scenes-doc: run make real-scenes-check first (it counts the pairs)" >&2; exit 1; }
	@$(PYTHON) $(REAL_SCENE_TOOL) doc --pairs $(REAL_SCENE_PAIRS) $(REAL_SCENE_DOC)

-include $(wildcard $(O)/obj/tools/real/*.d)
