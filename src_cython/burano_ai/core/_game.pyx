"""The C game interface (`_game.pxd`): `NativeState`, the base class of every compiled State.

Installed as `burano_ai.core._game`. A compiled game's State extends `NativeState` and points its
three fields at its function table, its Game's constant tables and its own C struct (in `__cinit__`,
and again wherever it changes Game); `burano_ai.search._native` reads nothing else of it.
"""


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
