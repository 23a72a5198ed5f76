# collide: Installation (included by the Makefile at this point: its variables come first).

# Use from another project: the headers, libcollide.a (-fPIC), libcollide.so.$(VERSION) with its
# soname and development links, a pkg-config file and a CMake package, under PREFIX (made
# absolute: the pkg-config file names it). DESTDIR stages the tree elsewhere (packaging).
PREFIX ?= /usr/local
DESTDIR ?=
ifneq ($(filter install uninstall install-check,$(MAKECMDGOALS)),)
ifeq ($(strip $(PREFIX)),)
$(error PREFIX is empty: give the folder to install into, e.g. PREFIX=$$HOME/.local)
endif
ifneq ($(findstring ~,$(PREFIX)),)
$(error PREFIX=$(PREFIX): write the home folder as $$HOME, make does not expand ~)
endif
endif
PREFIX_ABS := $(abspath $(PREFIX))
DEST := $(DESTDIR)$(PREFIX_ABS)
POINTER_BYTES = $(shell $(CC) -dM -E - </dev/null | sed -n 's/^\#define __SIZEOF_POINTER__ //p')
PUBLIC_HEADERS := $(notdir $(wildcard core/include/collide/*.h))
# Every file install writes (uninstall removes exactly these, then the two folders of its own
# if they are left empty).
INSTALLED := $(DEST)/include/collide.h $(PUBLIC_HEADERS:%=$(DEST)/include/collide/%) \
  $(DEST)/lib/libcollide.a $(DEST)/lib/libcollide.so.$(VERSION) $(DEST)/lib/$(SONAME) \
  $(DEST)/lib/libcollide.so $(DEST)/lib/pkgconfig/collide.pc \
  $(DEST)/lib/cmake/collide/collideConfig.cmake $(DEST)/lib/cmake/collide/collideConfigVersion.cmake
INSTALL_SUBST := -e 's|@PREFIX@|$(PREFIX_ABS)|g' -e 's|@VERSION@|$(VERSION)|g' \
  -e 's|@SOVERSION@|$(SOVERSION)|g' -e 's|@POINTER_BYTES@|$(POINTER_BYTES)|g'
install: lib
	install -d $(DEST)/include/collide $(DEST)/lib/pkgconfig $(DEST)/lib/cmake/collide
	install -m 0644 core/include/collide.h $(DEST)/include/collide.h
	install -m 0644 $(PUBLIC_HEADERS:%=core/include/collide/%) $(DEST)/include/collide/
	install -m 0644 $(LIB) $(DEST)/lib/libcollide.a
	install -m 0755 $(SHLIB) $(DEST)/lib/libcollide.so.$(VERSION)
	ln -sfn libcollide.so.$(VERSION) $(DEST)/lib/$(SONAME)
	ln -sfn $(SONAME) $(DEST)/lib/libcollide.so
	sed $(INSTALL_SUBST) scripts/build/collide.pc.in > $(DEST)/lib/pkgconfig/collide.pc
	sed $(INSTALL_SUBST) scripts/build/collideConfig.cmake.in > $(DEST)/lib/cmake/collide/collideConfig.cmake
	sed $(INSTALL_SUBST) scripts/build/collideConfigVersion.cmake.in \
	  > $(DEST)/lib/cmake/collide/collideConfigVersion.cmake
	chmod 0644 $(DEST)/lib/pkgconfig/collide.pc $(DEST)/lib/cmake/collide/*.cmake
	@echo "install: collide $(VERSION) in $(DEST); programs find libcollide.so.$(SOVERSION) at run time" \
	  "through ldconfig (system folders), LD_LIBRARY_PATH or an rpath"

uninstall:
	rm -f $(INSTALLED)
	@for d in $(DEST)/include/collide $(DEST)/lib/cmake/collide; do \
	  if [ -d "$$d" ]; then rmdir "$$d" || { echo "uninstall: $$d holds files collide did not install: left"; exit 1; }; fi; \
	done

# Install into a scratch prefix (given relative, as a user might), then build and run
# core/examples/use-installed against it as another project would: pkg-config (shared and
# --static) and CMake's find_package; then uninstall and check that nothing is left. Part of
# make test.
# (The script gets make's path through MAKE_PATH: a recipe line naming $(MAKE) itself would run
# even under make -n.)
MAKE_PATH = $(MAKE)
install-check:
	@bash scripts/build/install-check.sh "$(MAKE_PATH)" "$(CC)" build/install-check
