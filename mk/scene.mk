# collide: the scene file tool (included by the Makefile at this point: its variables come first).
#
# collide-scene (tools/scene/): converts scene files between their text and binary forms and
# describes them (docs/scenes.md). `make scene-tool` builds $(O)/collide-scene.
SCENE_TOOL_SRC := $(wildcard tools/scene/*.c)
SCENE_TOOL_OBJ := $(SCENE_TOOL_SRC:%.c=$(O)/obj/%.o)
SCENE_TOOL := $(O)/collide-scene

$(O)/obj/tools/scene/%.o: tools/scene/%.c $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(SCENE_TOOL): $(SCENE_TOOL_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $^ -lm -o $@

.PHONY: scene-tool
scene-tool: $(SCENE_TOOL)
