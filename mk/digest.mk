# collide: the digests (included by the Makefile at this point: its variables come first).
#
# collide-digest (tools/digest/): every public kernel over a fixed, versioned input set on every
# backend this CPU runs, one hash per kernel and backend (docs/determinism.md).
# Its own code (the inputs it draws, the canonical form of the answers) is built strict whatever
# a compared variant's CHOICE_CFLAGS say, so two builds digest the same inputs; the library it
# links is the build's own.
DIGEST_SRC := $(wildcard tools/digest/*.c)
DIGEST_OBJ := $(DIGEST_SRC:%.c=$(O)/obj/%.o)
DIGESTBIN := $(O)/collide-digest
DIGEST_GOLDEN := tools/digest/golden.txt
DIGEST_CFLAGS = $(filter-out $(CHOICE_CFLAGS),$(ALL_CFLAGS)) -ffp-contract=off -fno-fast-math
DIGEST_BUILD_H := $(O)/gen/digest_build.h

# What the digest's header says of the build: the compiler, the library's flags, the variant's.
dg_quote = $(subst ",\",$(subst \,\\,$(1)))
$(DIGEST_BUILD_H): FORCE
	@mkdir -p $(@D)
	@t=$@.tmp.$$$$; { printf '#define DG_CC "%s"\n' "$(call dg_quote,$(shell $(CC) --version 2>/dev/null | head -n 1))"; \
	  printf '#define DG_FLAGS "%s"\n' "$(call dg_quote,$(strip $(ALL_CFLAGS)))"; \
	  printf '#define DG_CHOICE "%s"\n' "$(call dg_quote,$(VARIANT))"; } > $$t; \
	  cmp -s $$t $@ || mv $$t $@; rm -f $$t

$(O)/obj/tools/digest/%.o: tools/digest/%.c $(O)/.flags $(DIGEST_BUILD_H) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(DIGEST_CFLAGS) $(HARNESS_INC) -Itools/digest -I$(O)/gen -MMD -MP -c $< -o $@

$(DIGESTBIN): $(DIGEST_OBJ) $(USER_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $^ -lm -o $@

.PHONY: digest digest-check digest-golden digest-selftest
# The digest of this build (build/release unless O says otherwise), also kept in $(O)/digest.txt;
# DIGEST_ARGS passes options (--kernel, --backend, --inputs, ...; collide-digest --help).
digest: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory $(DIGESTBIN)
	@if $(DIGESTBIN) --progress $(DIGEST_ARGS) > $(O)/digest.txt.tmp; then \
	  mv $(O)/digest.txt.tmp $(O)/digest.txt; cat $(O)/digest.txt; echo "digest: written to $(O)/digest.txt"; \
	else rc=$$?; rm -f $(O)/digest.txt.tmp; \
	  echo "digest: failed (exit $$rc); $(O)/digest.txt left as it was" >&2; exit $$rc; fi

# This build against the committed golden digest (part of make test, in build/test).
digest-check: $(DIGESTBIN)
	@$(DIGESTBIN) --check $(DIGEST_GOLDEN) $(DIGEST_ARGS) > $(O)/digest.txt

# A new golden file from the reference build (build/release, strict flags): only when the input
# set or the semantics change on purpose, with DG_INPUT_SET raised and the reason in the commit.
digest-golden: $(DEPS_STAMP)
	@[ -z "$(strip $(CHOICE_CFLAGS))" ] || { echo "digest-golden: the golden file comes from the reference build, not CHOICE_CFLAGS" >&2; exit 2; }
	@$(MAKE) --no-print-directory O=build/release build/release/collide-digest
	@build/release/collide-digest --golden > $(DIGEST_GOLDEN).tmp && mv $(DIGEST_GOLDEN).tmp $(DIGEST_GOLDEN)
	@echo "digest-golden: wrote $(DIGEST_GOLDEN) ($$(grep -vc '^#' $(DIGEST_GOLDEN)) kernels)"

# A seeded one-ulp change in one backend must fail digest-check naming the kernel, the backend
# and the first differing input (scripts/check/digest-selftest.sh).
digest-selftest: $(DEPS_STAMP)
	@bash scripts/check/digest-selftest.sh

# make fuzz-choice CHOICE='CC=clang CFLAGS=-O3 -march=native -ffp-contract=fast': the digest's
# kernels fuzzed on the reference build and on a variant in one libFuzzer program
# (scripts/fuzz/fuzz-choice.sh; tools/choice/). The variant's folder builds choice-variant.o: the
# digest's kernels and the variant's library linked into one relocatable object whose only
# global names are choice_variant_kernels and choice_variant_run (objcopy makes the rest
# local), so the two libraries' col_ names never meet.
CHOICE_SRC := $(wildcard tools/choice/*.c)
DIGEST_KERNEL_OBJ := $(filter-out %/main.o,$(DIGEST_OBJ))
$(O)/obj/tools/choice/%.o: tools/choice/%.c $(O)/.flags $(DIGEST_BUILD_H) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(DIGEST_CFLAGS) $(HARNESS_INC) -Itools/digest -I$(O)/gen -MMD -MP -c $< -o $@
$(O)/choice-variant.o: $(DIGEST_KERNEL_OBJ) $(O)/obj/tools/choice/variant_entry.o $(LIB)
	ld -r -o $@.all.o $(DIGEST_KERNEL_OBJ) $(O)/obj/tools/choice/variant_entry.o --whole-archive $(LIB) --no-whole-archive
	objcopy --keep-global-symbol=choice_variant_kernels --keep-global-symbol=choice_variant_run $@.all.o $@
	@rm -f $@.all.o
# Linked in the fuzz build (O=build/fuzz, SANITIZE=fuzz) with the variant's object named by
# FUZZ_CHOICE_VARIANT, into the variant's folder.
FUZZ_CHOICE_VARIANT ?=
$(dir $(FUZZ_CHOICE_VARIANT))fuzz_choice: $(O)/obj/tools/choice/fuzz_choice.o $(DIGEST_KERNEL_OBJ) $(LIB) \
  $(FUZZ_CHOICE_VARIANT)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $^ -lm -o $@

.PHONY: fuzz-choice
# FUZZ_SECONDS (default 30) of fuzzing; INPUT=file runs one input again (exit 1 while it differs).
fuzz-choice: $(DEPS_STAMP)
	@bash scripts/fuzz/fuzz-choice.sh
