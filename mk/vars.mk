# collide: a misspelled variable stops make (included first by the Makefile).
#
# make ignores a variable nothing reads: `make bench SCENES=level.scene` (for SCENE) ran the whole
# default suite. The variables given on make's own command line (not its sub-makes', not the
# environment's) that are not collide's but look like one of them stop make here, naming the
# variable each resembles (scripts/build/make-vars.py reads collide's variables from the tree:
# the makefiles, make help, the scripts). Names that resemble none pass (V=1, your own).
ifeq ($(MAKELEVEL),0)
COMMAND_LINE_VARS := $(strip $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(v))))
ifneq ($(COMMAND_LINE_VARS),)
MISSPELLED_VARS := $(shell /usr/bin/python3 scripts/build/make-vars.py $(COMMAND_LINE_VARS) 2>&1)
ifneq ($(MISSPELLED_VARS),)
$(error $(MISSPELLED_VARS))
endif
endif
endif
