"""The C game interface (`_game.pxd`): `NativeState`, the base class of every compiled State.

Installed as `burano_ai.core._game`. A compiled game's State extends `NativeState` and points its
three fields at its function table, its Game's constant tables and its own C struct (in `__cinit__`,
and again wherever it changes Game); `burano_ai.search._native` reads nothing else of it.
"""

from libc.stdlib cimport free, malloc
from libc.string cimport memset


cdef class NativeState:
    """Base of compiled States: the C game interface (`ops`) with the game and state it works on."""

    @property
    def abi_version(self):
        """The C game interface version the game was built for (`GAME_ABI_VERSION`)."""
        return self.ops.abi_version if self.ops != NULL else 0

    @property
    def native_num_actions(self):
        """Distinct action ids of the game, as the C interface declares them."""
        return self.ops.num_actions if self.ops != NULL else 0

    @property
    def game_name(self):
        """The game's registry key, as its C game interface names it (None before binding)."""
        if self.ops == NULL or self.ops.name == NULL:
            return None
        return (<bytes>self.ops.name).decode("ascii")

    @property
    def encoder_version(self):
        """The version of the game's encoder (`encode`), 0 when the game has none."""
        return self.ops.encoder_version if self.ops != NULL and self.ops.encode != NULL else 0

    @property
    def num_features(self):
        """How many numbers `encode` writes (0 when the game has no encoder)."""
        if self.ops == NULL or self.ops.encode == NULL:
            return 0
        return self.ops.num_features(self.game_ptr)

    def encode(self, seat):
        """The encoder's features of this whole state from `seat`'s side (a list of floats), as the native
        search computes them at a leaf of the world it sampled (seats in relative order: `seat` first).

        Raises:
            OptionError: the game has no encoder, or `seat` is not a seat of this game.
            TypeError: `seat` is not an int.
        """
        from burano_ai.core.arguments import check_index
        from burano_ai.core.errors import OptionError
        cdef int n, p, i
        cdef float* buf
        if self.ops == NULL or self.ops.encode == NULL:
            raise OptionError("this game has no encoder (no learned evaluation reads it)")
        n = self.ops.num_players(self.game_ptr)
        p = check_index(seat, n, "seat")
        size = self.ops.num_features(self.game_ptr)
        buf = <float*>malloc(size * sizeof(float))
        if buf == NULL:
            raise MemoryError()
        try:
            memset(buf, 0, size * sizeof(float))
            self.ops.encode(self.game_ptr, self.state_ptr, p, buf)
            return [buf[i] for i in range(size)]
        finally:
            free(buf)
