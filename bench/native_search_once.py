import sys
sys.path.insert(0, "/work/wt-native/bench")
from compare_builds import _position
from burano_ai.search.ismcts import make_searcher
from burano_ai.search.params import Params
which = sys.argv[1]
if which == "pyr":
    pyr = _position(4, 7, 24); seat = pyr.current_player(); root = pyr.resample(seat, 5); pol = "heuristic"; it = 4000
else:
    mid = _position(3, 5, 300)
    while mid.is_chance_node():
        mid.apply_action(mid.chance_outcomes()[0][0])
    seat = mid.current_player(); root = mid.resample(seat, 3); pol = which; it = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
s = make_searcher(root, seat, Params(tree="native", playout_policy=pol), 1)
s.run(iterations=it)
print(s.nodes)
