# collide: the real scenes (included by the Makefile before mk/test.mk and mk/bench.mk, which
# use REAL_SCENE_FILES).
#
# bench/scenes/real.list names scenes taken from data that Debian packages ship (meshes of
# CGAL's data, a game's level); install-deps.sh installs the packages, and make real-scenes
# converts each into build/scenes/<name>.scene (scripts/build/real-scene.py; docs/real-scenes.md).
# Nothing of the packages' data is kept in the repository.
REAL_SCENE_LIST := bench/scenes/real.list
REAL_SCENE_TOOL := scripts/build/real-scene.py
REAL_SCENE_DIR := build/scenes
# (The self-tests' copies of the tree leave bench/scenes/ out: then there are no real scenes.)
REAL_SCENES := $(if $(wildcard $(REAL_SCENE_LIST)),$(shell awk -F'|' '/^[a-z]/ { gsub(/[ \t]/, "", $$1); print $$1 }' $(REAL_SCENE_LIST)))
# The scene files, in the list's order (make bench SCENE=... and the check take them from here).
REAL_SCENE_FILES := $(REAL_SCENES:%=$(REAL_SCENE_DIR)/%.scene)

# A package added to the list is installed by the next build (install-deps.sh reads the list).
$(DEPS_STAMP): $(wildcard $(REAL_SCENE_LIST))

# The converter names a missing package (exit 3) or a source it cannot read (exit 1).
$(REAL_SCENE_DIR)/%.scene: $(REAL_SCENE_LIST) $(REAL_SCENE_TOOL) | $(DEPS_STAMP)
	@$(PYTHON) $(REAL_SCENE_TOOL) convert $* $@

.PHONY: real-scenes
real-scenes: $(REAL_SCENE_FILES)
