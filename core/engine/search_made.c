/* SPDX-License-Identifier: MIT */
/* The positions a node's turns have led to (search_made.h). */
#include "search_made.h"

#include <stdlib.h>
#include <string.h>

void search_made_new_node(MadeSet *m)
{
    m->count = 0;
    if (++m->stamp == 0) { /* wrapped: slots of old nodes would match */
        if (m->slot)
            memset(m->slot, 0, SEARCH_MADE_SLOTS * sizeof *m->slot);
        m->stamp = 1;
    }
}

bool search_made_first(MadeSet *m, u128 key)
{
    if (!m->slot) {
        m->slot = calloc(SEARCH_MADE_SLOTS, sizeof *m->slot);
        if (!m->slot)
            return true;
    }
    if (m->count >= SEARCH_MADE_SLOTS / 4 * 3)
        return true;
    for (uint32_t i = (uint32_t)key % SEARCH_MADE_SLOTS;; i = (i + 1) % SEARCH_MADE_SLOTS) {
        MadeSlot *s = &m->slot[i];
        if (s->stamp != m->stamp) {
            s->key = key;
            s->stamp = m->stamp;
            m->count++;
            return true;
        }
        if (s->key == key)
            return false;
    }
}

void search_made_free(MadeSet *m)
{
    free(m->slot);
    m->slot = NULL;
}
