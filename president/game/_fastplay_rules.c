/* The rules of a trick on C arrays, for president/_fastplay.c: legal plays, a play and its
 * consequences (`legality.legal_plays`, `PresidentState._play` and what it calls), move for move. */
#include "_fastplay.h"

PyObject *PLAYS[17][MAXK][MAXK];
PyObject *PASS_PLAY = NULL;
PyObject *SEATS[MAXP];

static int first_after(int n, int p, int seats) {
    for (int step = 1; step <= n; step++) {
        int q = (p + step) % n;
        if (seats >> q & 1) return q;
    }
    return -1;
}

static int forbidden_finish(const Round *g, Code c) {
    return c.count == g->sizes[g->current] && (c.value == TWO || c.value == JOKER || c.jokers > 0);
}

/* No going out on a two: on a lead, drop forbidden finishes unless every play is one. */
static int filter_finishes(const Round *g, Code *out, int k, int lead) {
    Code kept[MAXLEGAL];
    int m = 0;
    for (int i = 0; i < k; i++)
        if (!forbidden_finish(g, out[i])) kept[m++] = out[i];
    if (lead && m == 0) return k;
    memcpy(out, kept, sizeof(Code) * m);
    return m;
}

static int out_of_range(const char *what) {
    PyErr_Format(PyExc_ValueError, "fastplay: %s", what);
    return -1;
}

int fp_check_hand(const int *counts) {
    for (int v = 0; v < JOKER; v++)
        if (counts[v] < 0 || counts[v] > 4) return out_of_range("cards of one deck: 0 to 4 of a value");
    if (counts[JOKER] < 0 || counts[JOKER] > 2) return out_of_range("cards of one deck: 0 to 2 jokers");
    return 0;
}

int fp_check_trick(const Round *g) {
    if (g->up_count < 0 || g->up_count >= MAXK) return out_of_range("upcards of 0 to 8 cards");
    if (g->up_count && (g->up_value < 3 || g->up_value > JOKER)) return out_of_range("upcards of a value 3 to 16");
    return fp_check_hand(g->counts[g->current]);
}

int fp_check_round(const Round *g) {
    if (g->n < 1 || g->n > MAXP) return out_of_range("1 to 8 players");
    if (g->current < 0 || g->current >= g->n) return out_of_range("the player to move is not at the table");
    if (g->last_player < -1 || g->last_player >= g->n) return out_of_range("the last player is not at the table");
    if (g->best_free < 1 || g->worst_free > g->n || g->best_free > g->worst_free)
        return out_of_range("the free places are not places of the table");
    for (int p = 0; p < g->n; p++) {
        if (fp_check_hand(g->counts[p]) < 0) return -1;
        int size = 0;
        for (int v = 0; v < 17; v++) size += g->counts[p][v];
        if (g->sizes[p] != size) return out_of_range("a hand's size is not its cards' count");
        if (g->places[p] < 0 || g->places[p] > g->n) return out_of_range("a place is not a place of the table");
    }
    if (fp_check_hand(g->played_counts) < 0) return -1;
    return fp_check_trick(g);
}

/* `legality.legal_plays` for a table where suits do not matter; the pass is (0, 0, 0). */
int fp_legal(const Round *g, const Rules *r, Code *out) {
    const int *counts = g->counts[g->current];
    int wild = r->wild ? counts[JOKER] : 0;
    int k = 0;
    if (!g->up_count) {
        for (int v = 3; v < 16; v++) {
            int n = counts[v];
            if (!n) continue;
            for (int c = 1; c <= n; c++) out[k++] = (Code){v, c, 0};
            for (int c = n + 1; c <= n + wild; c++) out[k++] = (Code){v, c, c - n};
        }
        if (counts[JOKER]) out[k++] = (Code){JOKER, 1, 0};
        if (r->no_two_finish) k = filter_finishes(g, out, k, 1);
        return k;
    }
    int need = g->up_count, top = g->up_value;
    if (top != JOKER) {
        int equal = r->equal_value != EQUAL_NO;
        int low, high;
        if (g->reversed) { low = 3; high = equal ? top : top - 1; }
        else { low = equal ? top : top + 1; high = 15; }
        if (wild) {
            for (int v = low; v <= high; v++) {
                int n = counts[v];
                if (n >= need) out[k++] = (Code){v, need, 0};
                else if (n && n + wild >= need) out[k++] = (Code){v, need, need - n};
            }
        } else if (need < MAXK) {
            for (int v = low; v <= high; v++)
                if (counts[v] >= need) out[k++] = (Code){v, need, 0};
        }
        if (need == 1 && counts[JOKER]) out[k++] = (Code){JOKER, 1, 0};
        if (r->no_two_finish) k = filter_finishes(g, out, k, 0);
    }
    out[k++] = (Code){0, 0, 0};
    return k;
}

/* The lowest `n` cards of a 4-bit slot (fewer if it holds fewer), as bits of that slot. */
static uint64_t lowest(uint64_t slot, int n) {
    uint64_t taken = 0;
    while (n-- > 0 && slot) {
        uint64_t low = slot & (~slot + 1);
        taken |= low;
        slot ^= low;
    }
    return taken;
}

static int next_waiting(const Round *g, int p) {
    int all = (1 << g->n) - 1;
    return first_after(g->n, p, all & ~(g->out | g->declined | 1 << g->last_player));
}

static void new_trick(Round *g, int leader) {
    g->up_count = 0; g->up_value = 0; g->up_obj = Py_None;
    g->last_player = -1; g->declined = 0;
    if (g->out >> leader & 1) leader = first_after(g->n, leader, ((1 << g->n) - 1) & ~g->out);
    g->current = leader;
}

static void advance(Round *g, int p) {
    int q = next_waiting(g, p);
    if (q < 0) new_trick(g, g->last_player);
    else g->current = q;
}

/* `PresidentState._finish_player`, except the round's end itself; 1 when the round is over. */
static int finish(Round *g, int p, int foul) {
    g->out |= 1 << p;
    if (foul) g->places[p] = g->worst_free--;
    else g->places[p] = g->best_free++;
    if (g->best_free == g->worst_free) {
        for (int q = 0; q < g->n; q++)
            if (!g->places[q]) { g->places[q] = g->best_free; g->out |= 1 << q; break; }
        return 1;
    }
    return 0;
}

static int append_history(PyObject *history, int p, PyObject *play) {
    PyObject *item = PyTuple_Pack(2, SEATS[p], play);
    if (!item) return -1;
    int rc = PyList_Append(history, item);
    Py_DECREF(item);
    return rc;
}

int fp_play(Round *g, const Rules *r, Code c, PyObject *history) {
    int p = g->current;
    PyObject *obj = c.count ? PLAYS[c.value][c.count][c.jokers] : PASS_PLAY;
    if (append_history(history, p, obj) < 0) return -1;
    if (!c.count) {
        g->declined |= 1 << p;
        advance(g, p);
        return 0;
    }
    int value = c.value, count = c.count, jokers = c.jokers, naturals = count - jokers;
    int shift = (value - 3) * 4;
    uint64_t mask = g->masks[p];
    uint64_t taken = lowest((mask >> shift) & 0xF, naturals) << shift;
    g->counts[p][value] -= naturals;
    g->played_counts[value] += naturals;
    if (jokers) {
        int js = (JOKER - 3) * 4;
        uint64_t jt = lowest((mask >> js) & 0xF, jokers) << js;
        taken |= jt;
        g->counts[p][JOKER] -= jokers;
        g->played_counts[JOKER] += jokers;
    }
    g->masks[p] = mask ^ taken;
    g->played |= taken;
    g->sizes[p] -= naturals + jokers;
    int equal = g->up_count && value == g->up_value;
    g->up_value = value; g->up_count = count; g->up_obj = obj;
    g->last_player = p;
    if (!r->pass_locks) g->declined = 0;
    int ends = (r->twos_end && (value == JOKER || value == (g->reversed ? 3 : TWO))) || (r->eight_cut && value == 8);
    if (count >= 4 && r->revolution && value != JOKER) g->reversed = !g->reversed;
    if (!g->sizes[p] && finish(g, p, r->no_two_finish && (value == TWO || value == JOKER || jokers > 0)))
        return 1;
    if (ends) { new_trick(g, p); return 0; }
    if (equal && r->equal_value == EQUAL_SKIP) {
        int skipped = next_waiting(g, p);
        if (skipped >= 0) {
            g->declined |= 1 << skipped;
            if (append_history(history, skipped, Py_None) < 0) return -1;
            p = skipped;
        }
    }
    advance(g, p);
    return 0;
}
