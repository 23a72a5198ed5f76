# collide: Peer engines and the benchmark binary (included by the Makefile at this point: its variables come first).

# Peer engines (bench/peers/): each engine whose Debian package is installed is compiled in
# (COL_PEER_<ENGINE>); an absent one is named by the benchmark binary and the peer tests.
PEER_SRC := bench/peers/peers.c
PEER_DEFS :=
PEER_CXXFLAGS :=
PEER_LIBS :=
PEER_ABSENT :=
ifeq ($(shell pkg-config --exists bullet 2>/dev/null && echo yes),yes)
PEER_SRC += bench/peers/peer_bullet.cc
PEER_DEFS += -DCOL_PEER_BULLET
PEER_CXXFLAGS += $(shell pkg-config --cflags bullet)
PEER_LIBS += -lBulletCollision -lLinearMath
else
PEER_ABSENT += bullet(libbullet-dev)
endif
ifneq ($(wildcard /usr/include/box2d/b2_broad_phase.h),)
PEER_SRC += bench/peers/peer_box2d.cc
PEER_DEFS += -DCOL_PEER_BOX2D
PEER_LIBS += -lbox2d
else
PEER_ABSENT += box2d(libbox2d-dev)
endif
ifneq ($(wildcard /usr/include/chipmunk/cpSpatialIndex.h),)
PEER_SRC += bench/peers/peer_chipmunk.c
PEER_DEFS += -DCOL_PEER_CHIPMUNK
PEER_LIBS += -lchipmunk
else
PEER_ABSENT += chipmunk(libchipmunk-dev)
endif
ifeq ($(shell pkg-config --exists fcl 2>/dev/null && echo yes),yes)
PEER_SRC += bench/peers/peer_fcl.cc
PEER_DEFS += -DCOL_PEER_FCL
PEER_CXXFLAGS += $(filter-out -std=%,$(shell pkg-config --cflags fcl))
PEER_LIBS += -lfcl
else
PEER_ABSENT += fcl(libfcl-dev)
endif
ifeq ($(shell pkg-config --exists ode 2>/dev/null && echo yes),yes)
PEER_SRC += bench/peers/peer_ode.cc
PEER_DEFS += -DCOL_PEER_ODE
PEER_CXXFLAGS += $(shell pkg-config --cflags ode)
PEER_LIBS += $(shell pkg-config --libs ode)
else
PEER_ABSENT += ode(libode-dev)
endif
PEER_OBJ := $(patsubst %,$(O)/obj/%.o,$(basename $(PEER_SRC)))
PEER_TESTBIN := $(O)/collide-peer-tests

# Benchmarks: C files over the Google Benchmark shim (the one C++ file) and the peers.
BENCH_OBJ := $(patsubst %.c,$(O)/obj/%.o,$(wildcard bench/*.c)) $(O)/obj/bench/gbench.o $(PEER_OBJ)
BENCHBIN := $(O)/collide-bench

$(O)/bench_context.h: FORCE
	@mkdir -p $(@D)
	@{ echo '#define COLLIDE_BENCH_CC "$(shell $(CC) --version | head -n1)"'; \
	   echo '#define COLLIDE_BENCH_CFLAGS "$(strip $(CFLAGS) $(CHOICE_CFLAGS))"'; \
	   echo '#define COLLIDE_BENCH_GIT_REV "$(shell git describe --always --dirty 2>/dev/null || echo unknown)"'; \
	 } > $@.tmp.$$$$; cmp -s $@.tmp.$$$$ $@ || mv $@.tmp.$$$$ $@; rm -f $@.tmp.$$$$

$(O)/obj/bench/%.o: bench/%.c $(O)/.flags $(O)/bench_context.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(HARNESS_INC) -I$(O) -Ibench -MMD -MP -c $< -o $@

$(O)/obj/bench/peers/%.o: bench/peers/%.c $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PEER_DEFS) -Ibench -MMD -MP -c $< -o $@

$(O)/obj/bench/peers/%.o: bench/peers/%.cc bench/peers/peers.h $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) $(if $(filter 1,$(SANITIZE)),$(SANITIZE_FLAGS)) -std=c++17 -Icore/include \
	  $(PEER_CXXFLAGS) -c $< -o $@

$(O)/obj/bench/peers/test_peers.o: bench/peers/test_peers.c $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Ibench -MMD -MP -c $< -o $@

# The peer pair-set tests (Criterion): the peers against our brute force on small scenes.
$(PEER_TESTBIN): $(O)/obj/bench/peers/test_peers.o $(O)/obj/bench/bench_scenes.o $(PEER_OBJ) $(LIB)
	$(CXX) $(CXXFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $^ $(PEER_LIBS) -lcriterion -lm -o $@

$(O)/obj/bench/gbench.o: bench/gbench.cc bench/gbench.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) $(if $(filter 1,$(SANITIZE)),$(SANITIZE_FLAGS)) -std=c++17 -c $< -o $@

$(BENCHBIN): $(BENCH_OBJ) $(HARNESS_OBJ) $(USER_OBJ) $(LIB)
	$(CXX) $(CXXFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $^ $(PEER_LIBS) $(HARNESS_LIBS) -lbenchmark -lpthread -lm -o $@
