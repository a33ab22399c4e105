# `make EXE=PATH` builds the release binary and copies it to PATH (OpenBench's workers call
# it so); plain `make` leaves it at target/release/menagerie.
EXE ?= menagerie
CARGO ?= cargo

.PHONY: all clean
all:
	$(CARGO) build --release
	cp target/release/menagerie $(EXE)

clean:
	$(CARGO) clean
