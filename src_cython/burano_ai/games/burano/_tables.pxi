# Rules tables: every rules number of burano_ai.games.burano.data / topology / actions, copied once at import into
# the C struct `T` (the workshop layout goes into GameC at Game construction instead).
# Included by _core.pyx (Cython `include`): the hot path is one C compilation unit, so the module-level
# tables `T` and `ZOBRIST` stay plain C statics and gcc can inline across these files.

# ================================================================================================
# Tables: rules data copied from the Python modules once at import
# ================================================================================================

# Action families, in id order (actions._FAMILIES).
cdef enum:
    F_DONE, F_TAKE, F_BUILD, F_ROOF, F_PRIV_COIN, F_PRIV_CUBE, F_PYRAMID, F_SAIL, F_GO, F_SWAP_PICK, F_SWAP_WITH,
    F_DRAW_DECK, F_DRAW_DISPLAY, F_SEND, F_SELL, F_LACE, F_LACE_PRIV, F_RECALL_ISLAND, F_RECALL_SQUARE,
    F_BONUS_PRIVILEGE, F_BONUS_DISPLAY, F_BONUS_DECK, F_PAY, F_REPLENISH, F_PRIV_RESERVE,
    F_ROOF_DISCARD, F_ROOF_KIND, F_CH_FISH, F_CH_BUILDING, F_CH_ROOF, F_CH_MARKERS, NUM_FAMILIES

_FAMILY_NAMES = ("DONE", "TAKE", "BUILD", "ROOF", "PRIV_COIN", "PRIV_CUBE", "PYRAMID", "SAIL", "GO", "SWAP_PICK",
                 "SWAP_WITH", "DRAW_DECK", "DRAW_DISPLAY", "SEND", "SELL", "LACE", "LACE_PRIV", "RECALL_ISLAND",
                 "RECALL_SQUARE", "BONUS_PRIVILEGE", "BONUS_DISPLAY", "BONUS_DECK", "PAY", "REPLENISH",
                 "PRIV_RESERVE", "ROOF_DISCARD", "ROOF_KIND", "CH_FISH", "CH_BUILDING", "CH_ROOF", "CH_MARKERS")

# Building card families (data.buildings), ring symbols and pay options.
cdef enum:
    BF_ROOF_BONUS, BF_ROOF_WILDCARD, BF_SOLD_FISH, BF_LACE_COLOURS, BF_LONG_VOYAGE, BF_LACE_BUMPING,
    BF_ISLAND_TIES, BF_LACE_DISCOUNT, BF_COLLECTOR, BF_MONUMENT, NUM_CARD_FAMILIES
cdef enum:
    SYM_COIN = 0
    SYM_FOUNTAIN = 1
cdef enum:
    PAY_PYRAMID, PAY_PRIVILEGE, PAY_DISCOUNT, PAY_NONE
cdef enum:
    ACT_FISHING, ACT_LACE, ACT_EARNING
cdef enum:
    KIND_ISLAND_MAJORITY, KIND_WORKSHOP_MAJORITY, KIND_FOUNTAINS, KIND_FLAT
cdef enum:
    SHIP_DIFFERENT, SHIP_IDENTICAL, SHIP_PAIRS, SHIP_TRIPLES
cdef enum:
    MAX_UNION = 32


cdef struct TablesC:
    # Actions.
    int offset[NUM_FAMILIES]                    # first id of each family
    int num_actions
    int8_t action_family[MAX_ACTIONS]           # family of each action id
    int16_t action_index[MAX_ACTIONS]           # index within the family
    # Island.
    int8_t fountain_hole
    int8_t hole_nbr[NUM_HOLES][MAX_HOLE_NEIGHBOURS]   # diagonal neighbours
    int8_t hole_nbr_n[NUM_HOLES]
    int8_t line_a[NUM_ROOF_LINES]               # roof line: hole a < hole b, midpoint cell
    int8_t line_b[NUM_ROOF_LINES]
    int8_t line_mid[NUM_ROOF_LINES]
    uint64_t hole_lines[NUM_HOLES]             # bit per roof line ending at the hole
    uint64_t mid_lines[NUM_LATTICE_CELLS]      # bit per roof line whose midpoint is the cell
    uint64_t hole_dependents[NUM_HOLES]        # the hole and every hole it neighbours (build_level reads)
    # Route.
    int8_t dest[NUM_ROUTE_NODES][2][MAX_ROUTE_DESTS]  # sail destinations [node][long voyage], sorted
    int8_t dest_n[NUM_ROUTE_NODES][2]
    int8_t node_island[NUM_ROUTE_NODES]
    int8_t node_port[NUM_ROUTE_NODES]
    # Ring pieces.
    int8_t piece_colour[NUM_PIECES][3]
    int8_t piece_symbol[NUM_PIECES][3]
    # Sales: ship, counts per species, VP; plus the species mask and the count each needs.
    int8_t sale_ship[NUM_SALES]
    int16_t ship_sales_end[NUM_SHIPS]         # one past the last sale of the ship (each ship's sales are contiguous)
    int8_t sale_counts[NUM_SALES][NUM_SPECIES]
    int16_t sale_vp[NUM_SALES]
    uint8_t sale_mask[NUM_SALES]
    int8_t sale_need[NUM_SALES]
    # Markers.
    int8_t marker_map[NUM_MARKER_MAPPINGS][NUM_COLOURS]
    # Buildings.
    int8_t card_family[NUM_BUILDINGS]
    uint8_t card_arg_mask[NUM_BUILDINGS]        # colours (roof/lace cards) or species (sold fish)
    uint16_t family_cards[NUM_CARD_FAMILIES]    # card ids of each family
    # Roofs.
    int8_t roof_pair[NUM_ROOF_PAIRS][2]
    int majority_roof_vp[4]
    int fountain_roof_vp[5]
    int flat_roof_vp
    int roof_privilege_bonus
    int roof_bonus_vp_per_field
    # Pyramid.
    int8_t middle_support[4][4]
    uint32_t middle_cover[4]          # bit per base position a middle cube rests on
    # Turn and scoring numbers.
    int max_moves
    int move_costs[4]
    int no_move_coins
    int season_rounds[4]
    int num_seasons
    int prep_slots
    int leftover_cube_coins
    int bump_coins
    int recall_coins
    int coins_per_vp
    int lace_paid_vp
    int union_bonus[MAX_UNION]
    int num_union_bonus
    int island_majority_vp[MAX_PLAYERS + 1]
    int empty_draw_vp
    int hand_card_vp
    int fish_display_size
    int building_display_size
    int cubes_per_colour
    int cards_per_species
    int sold_fish_vp_per_card
    int lace_colours_vp_per_worker
    int lace_discount_end_vp
    int collector_vp_per_card
    int monument_vp

cdef TablesC T

# Action offsets as plain C ints for the hot path.
cdef int A_DONE, A_TAKE, A_BUILD, A_ROOF, A_PRIV_COIN, A_PRIV_CUBE, A_PYRAMID, A_SAIL, A_GO, A_SWAP_PICK, A_SWAP_WITH
cdef int A_DRAW_DECK, A_DRAW_DISPLAY, A_SEND, A_SELL, A_LACE, A_LACE_PRIV, A_RECALL_ISLAND
cdef int A_RECALL_SQUARE, A_BONUS_PRIVILEGE, A_BONUS_DISPLAY, A_BONUS_DECK, A_PAY, A_REPLENISH
cdef int A_PRIV_RESERVE, A_ROOF_DISCARD, A_ROOF_KIND, A_CH_FISH, A_CH_BUILDING, A_CH_ROOF, A_CH_MARKERS
cdef int NUM_ACTIONS


def _require(bint ok, str what):
    if not ok:
        raise ImportError(f"burano_ai.games.burano._core was compiled for other rules data: {what}")


def _init_tables():
    """Copy every rules number from the Python modules into the C tables (run once at import)."""
    global A_DONE, A_TAKE, A_BUILD, A_ROOF, A_PRIV_COIN, A_PRIV_CUBE, A_PYRAMID, A_SAIL, A_GO, A_SWAP_PICK, A_SWAP_WITH
    global A_DRAW_DECK, A_DRAW_DISPLAY, A_SEND, A_SELL, A_LACE, A_LACE_PRIV, A_RECALL_ISLAND
    global A_RECALL_SQUARE, A_BONUS_PRIVILEGE, A_BONUS_DISPLAY, A_BONUS_DECK, A_PAY, A_REPLENISH
    global A_PRIV_RESERVE, A_ROOF_DISCARD, A_ROOF_KIND, A_CH_FISH, A_CH_BUILDING, A_CH_ROOF, A_CH_MARKERS
    global NUM_ACTIONS
    cdef int i, j, f, a, k
    # Compile-time sizes must match the data.
    _require(_colours.NUM_COLOURS == NUM_COLOURS, "NUM_COLOURS")
    _require(_topo.NUM_HOLES == NUM_HOLES, "NUM_HOLES")
    _require(_island.MAX_LEVEL == NUM_LEVELS and _island.MAX_ROOF_LEVEL == NUM_ROOF_LEVELS, "levels")
    _require(_island.SIZE * _island.SIZE == NUM_LATTICE_CELLS, "island size")
    _require(_topo.NUM_ROOF_LINES == NUM_ROOF_LINES, "NUM_ROOF_LINES")
    _require(_roofs.NUM_ROOF_KINDS == NUM_ROOF_KINDS and _roofs.TILES_PER_KIND == NUM_ROOF_PAIRS, "roof tiles")
    _require(_roofs.TOTAL_ROOF_TILES <= MAX_ROOFS and _roofs.ROOF_SLOTS == NUM_ROOF_SLOTS, "roof slots")
    _require(_route.NUM_ISLANDS == NUM_ISLANDS and _route.DOCKS_PER_ISLAND == DOCKS_PER_ISLAND, "islands")
    _require(_route.NUM_PORTS == NUM_PORTS and _ships.NUM_SHIPS == NUM_SHIPS, "ports/ships")
    _require(_topo.NUM_ROUTE_NODES == NUM_ROUTE_NODES, "route")
    _require(_fish.NUM_SPECIES == NUM_SPECIES and _buildings.NUM_BUILDINGS == NUM_BUILDINGS, "fish/buildings")
    _require(_workshops.NUM_SQUARES == NUM_SQUARES, "workshop squares")
    _require(_colours.MAX_PLAYERS == MAX_PLAYERS and _turn.PYRAMID_SIZE == PYRAMID_SIZE, "players/pyramid")
    _require(_ring.NUM_PIECES == NUM_PIECES and _ring.NUM_HOUSES == NUM_HOUSES
             and _ring.HOUSES_PER_PIECE == 3, "ring")
    _require(_actions.NUM_SALES == NUM_SALES and _actions.NUM_MARKER_MAPPINGS == NUM_MARKER_MAPPINGS, "sales/markers")
    _require(_actions.SIZE["SWAP_PICK"] == _actions.SIZE["SWAP_WITH"] == NUM_ISLANDS * NUM_COLOURS
             and _actions.NUM_ACTIONS <= MAX_ACTIONS, "actions")
    _require(tuple(n for n, _ in _actions._FAMILIES) == _FAMILY_NAMES, "action families")
    _require(len(_turn.MOVE_COSTS) == _turn.MAX_MOVES <= 4 and len(_turn.SEASON_ROUNDS) <= 4, "turn")
    _require(len(_buildings.BUILDING_CARDS) == NUM_BUILDINGS, "building cards")
    _require((_buildings.ROOF_BONUS, _buildings.ROOF_WILDCARD, _buildings.SOLD_FISH, _buildings.LACE_COLOURS, _buildings.LONG_VOYAGE, _buildings.LACE_BUMPING,
              _buildings.ISLAND_TIES, _buildings.LACE_DISCOUNT, _buildings.COLLECTOR, _buildings.MONUMENT) == tuple(range(NUM_CARD_FAMILIES)),
             "building families")
    _require((_ring.COIN, _ring.FOUNTAIN) == (SYM_COIN, SYM_FOUNTAIN), "ring symbols")
    _require(_actions.PAY_OPTIONS == ("pyramid", "privilege", "discount", "none"), "pay options")
    _require((_turn.FISHING, _turn.LACE, _turn.EARNING) == (ACT_FISHING, ACT_LACE, ACT_EARNING), "actions")
    _require((_roofs.ISLAND_MAJORITY, _roofs.WORKSHOP_MAJORITY, _roofs.FOUNTAINS, _roofs.FLAT)
             == (KIND_ISLAND_MAJORITY, KIND_WORKSHOP_MAJORITY, KIND_FOUNTAINS, KIND_FLAT), "roof kinds")
    _require(len(_roofs.MAJORITY_ROOF_VP) == 4 and len(_roofs.FOUNTAIN_ROOF_VP) == 5, "roof VP tables")
    _require(len(_turn.UNION_BONUS) <= MAX_UNION, "union bonus")
    _require(_ring.ARROW_SECTORS == (10, 11, 12), "arrow sectors")
    _require(_actions.TOP == 13 and len(_actions.MIDDLE_SUPPORT) == 4, "pyramid shape")
    # The C phase, chance-kind and stage numbers are those of burano_ai.games.burano.enums (the position format).
    Ph, CK, St = _enums.Phase, _enums.ChanceKind, _enums.Stage
    _require((PH_ROOF_PICK, PH_PYRAMID, PH_TURN, PH_FISH_SAIL, PH_FISH_SWAP, PH_FISH_DRAW, PH_FISH_SEND,
              PH_PORT_TRADE, PH_LACE_PLACE, PH_RECALL, PH_ROOF_BONUS, PH_LACE_PAY, PH_REPLENISH, PH_PRIV_RESERVE,
              PH_ROOF_DISCARD, PH_CHANCE_NODE, PH_GAME_OVER)
             == (Ph.ROOF_PICK, Ph.PYRAMID, Ph.TURN, Ph.FISH_SAIL, Ph.FISH_SWAP, Ph.FISH_DRAW, Ph.FISH_SEND,
                 Ph.PORT_TRADE, Ph.LACE_PLACE, Ph.RECALL, Ph.ROOF_BONUS, Ph.LACE_PAY, Ph.REPLENISH, Ph.PRIV_RESERVE,
                 Ph.ROOF_DISCARD, Ph.CHANCE_NODE, Ph.GAME_OVER) and len(Ph) == 17, "phases")
    _require((CK_NONE, CK_FISH_DRAW, CK_FISH_REFILL, CK_BUILDING_DRAW, CK_BUILDING_REFILL, CK_ROOF_TILE,
              CK_MARKERS)
             == (CK.NONE, CK.FISH_DRAW, CK.FISH_REFILL, CK.BUILDING_DRAW, CK.BUILDING_REFILL, CK.ROOF_TILE,
                 CK.MARKERS) and len(CK) == 7, "chance kinds")
    _require((ST_SETUP, ST_PYRAMID, ST_ROUNDS, ST_LACE_SCORING, ST_REPLENISH, ST_ROOF_REFILL, ST_END)
             == (St.SETUP, St.PYRAMID, St.ROUNDS, St.LACE_SCORING, St.REPLENISH, St.ROOF_REFILL, St.END)
             and len(St) == 7, "stages")
    _require(_enums.CHANCE == CHANCE_PLAYER and _enums.TERMINAL == TERMINAL_PLAYER and _enums.EMPTY == EMPTY
             and _enums.NO_PLAYER == EMPTY, "sentinels")

    # Actions.
    NUM_ACTIONS = _actions.NUM_ACTIONS
    T.num_actions = NUM_ACTIONS
    for f, name in enumerate(_FAMILY_NAMES):
        T.offset[f] = _actions.OFFSET[name]
        for i in range(_actions.SIZE[name]):
            T.action_family[T.offset[f] + i] = f
            T.action_index[T.offset[f] + i] = i
    (A_DONE, A_TAKE, A_BUILD, A_ROOF, A_PRIV_COIN, A_PRIV_CUBE, A_PYRAMID, A_SAIL, A_GO, A_SWAP_PICK, A_SWAP_WITH,
     A_DRAW_DECK, A_DRAW_DISPLAY, A_SEND, A_SELL, A_LACE, A_LACE_PRIV, A_RECALL_ISLAND, A_RECALL_SQUARE,
     A_BONUS_PRIVILEGE, A_BONUS_DISPLAY, A_BONUS_DECK, A_PAY, A_REPLENISH, A_PRIV_RESERVE, A_ROOF_DISCARD,
     A_ROOF_KIND, A_CH_FISH, A_CH_BUILDING, A_CH_ROOF, A_CH_MARKERS) = [T.offset[f] for f in range(NUM_FAMILIES)]
    # Island.
    T.fountain_hole = _topo.FOUNTAIN_HOLE
    for i in range(NUM_HOLES):
        nbrs = _topo.HOLE_NEIGHBOURS[i]
        _require(len(nbrs) <= MAX_HOLE_NEIGHBOURS, "hole neighbours")
        T.hole_nbr_n[i] = len(nbrs)
        for j, h in enumerate(nbrs):
            T.hole_nbr[i][j] = h
    for i in range(NUM_HOLES):
        T.hole_dependents[i] = (<uint64_t>1) << i
    for i in range(NUM_HOLES):
        for h in _topo.HOLE_NEIGHBOURS[i]:
            T.hole_dependents[h] |= (<uint64_t>1) << i
    for i in range(NUM_HOLES):
        T.hole_lines[i] = 0
    for i in range(NUM_LATTICE_CELLS):
        T.mid_lines[i] = 0
    for i, (ha, hb, mid) in enumerate(_topo.ROOF_LINES):
        T.line_a[i], T.line_b[i], T.line_mid[i] = ha, hb, mid
        T.hole_lines[ha] |= (<uint64_t>1) << i
        T.hole_lines[hb] |= (<uint64_t>1) << i
        T.mid_lines[mid] |= (<uint64_t>1) << i
    # Route.
    for i in range(NUM_ROUTE_NODES):
        for k in range(2):
            dests = set(_topo.ROUTE_STEP1[i])
            if k:
                dests.update(_topo.ROUTE_STEP2[i])
            dests = sorted(dests)
            _require(len(dests) <= MAX_ROUTE_DESTS, "route destinations")
            T.dest_n[i][k] = len(dests)
            for j, d in enumerate(dests):
                T.dest[i][k][j] = d
        T.node_island[i] = _topo.NODE_ISLAND[i]
        T.node_port[i] = _topo.NODE_PORT[i]
    # Ring.
    for i, piece in enumerate(_ring.RING_PIECES):
        for j, (colour, symbol) in enumerate(piece):
            T.piece_colour[i][j], T.piece_symbol[i][j] = colour, symbol
    # Sales.
    ships_done = set()
    for i, (ship, counts, vp) in enumerate(_actions.SALES):
        if i and ship != _actions.SALES[i - 1][0]:
            ships_done.add(_actions.SALES[i - 1][0])
        _require(ship not in ships_done, "each ship's sales contiguous")
        T.sale_ship[i] = ship
        T.ship_sales_end[ship] = i + 1
        T.sale_vp[i] = vp
        T.sale_mask[i] = 0
        need = max(counts)
        for j in range(NUM_SPECIES):
            T.sale_counts[i][j] = counts[j]
            if counts[j]:
                _require(counts[j] == need, "sale rows need equal counts per species")
                T.sale_mask[i] |= 1 << j
        T.sale_need[i] = need
    # Markers.
    for i, mapping in enumerate(_actions.MARKER_MAPPINGS):
        for j in range(NUM_COLOURS):
            T.marker_map[i][j] = mapping[j]
    # Buildings.
    for f in range(NUM_CARD_FAMILIES):
        T.family_cards[f] = 0
    for i, (_, fam, arg) in enumerate(_buildings.BUILDING_CARDS):
        T.card_family[i] = fam
        T.family_cards[fam] |= 1 << i
        T.card_arg_mask[i] = 0
        for x in arg:
            T.card_arg_mask[i] |= 1 << x
    T.roof_bonus_vp_per_field = _buildings.ROOF_BONUS_VP_PER_FIELD
    T.sold_fish_vp_per_card = _buildings.SOLD_FISH_VP_PER_CARD
    T.lace_colours_vp_per_worker = _buildings.LACE_COLOURS_VP_PER_WORKER
    T.lace_discount_end_vp = _buildings.LACE_DISCOUNT_END_VP
    T.collector_vp_per_card = _buildings.COLLECTOR_VP_PER_CARD
    T.monument_vp = _buildings.MONUMENT_VP
    T.building_display_size = _buildings.BUILDING_DISPLAY_SIZE
    # Roofs.
    for i, (fa, fb) in enumerate(_roofs.ROOF_PAIRS):
        T.roof_pair[i][0], T.roof_pair[i][1] = fa, fb
    for i in range(4):
        T.majority_roof_vp[i] = _roofs.MAJORITY_ROOF_VP[i]
    for i in range(5):
        T.fountain_roof_vp[i] = _roofs.FOUNTAIN_ROOF_VP[i]
    T.flat_roof_vp = _roofs.FLAT_ROOF_VP
    T.roof_privilege_bonus = _roofs.ROOF_PRIVILEGE_BONUS
    # Pyramid.
    for i in range(4):
        for j in range(4):
            T.middle_support[i][j] = _actions.MIDDLE_SUPPORT[i][j]
    for i in range(4):
        T.middle_cover[i] = 0
        for j in range(4):
            T.middle_cover[i] |= 1u << _actions.MIDDLE_SUPPORT[i][j]
    # Turn and scoring.
    T.max_moves = _turn.MAX_MOVES
    for i in range(T.max_moves):
        T.move_costs[i] = _turn.MOVE_COSTS[i]
    T.no_move_coins = _turn.NO_MOVE_COINS
    T.num_seasons = len(_turn.SEASON_ROUNDS)
    for i in range(T.num_seasons):
        T.season_rounds[i] = _turn.SEASON_ROUNDS[i]
    T.prep_slots = _turn.PREP_SLOTS
    T.leftover_cube_coins = _turn.LEFTOVER_CUBE_COINS
    T.bump_coins = _turn.BUMP_COINS
    T.recall_coins = _turn.RECALL_COINS
    T.coins_per_vp = _turn.COINS_PER_VP
    T.lace_paid_vp = _turn.LACE_PAID_VP
    T.num_union_bonus = len(_turn.UNION_BONUS)
    for i in range(MAX_UNION):
        T.union_bonus[i] = _turn.UNION_BONUS[min(i, T.num_union_bonus - 1)]
    for i in range(MAX_PLAYERS + 1):
        T.island_majority_vp[i] = _turn.ISLAND_MAJORITY_VP.get(i, 0)
    T.empty_draw_vp = _fish.EMPTY_DRAW_VP
    T.hand_card_vp = _fish.HAND_CARD_VP
    T.fish_display_size = _fish.FISH_DISPLAY_SIZE
    T.cards_per_species = _fish.CARDS_PER_SPECIES
    T.cubes_per_colour = _colours.CUBES_PER_COLOUR


_init_tables()
