/*
 * u64slot.h - the probe of the controller's open-addressing tables keyed
 * by nonzero 64-bit keys (controller-internal): the learned pairs'
 * excesses (history.c) and the candidates a decision has estimated
 * (decide.c).  Each table keeps its keys in an array of `cap` slots, cap a
 * power of two, 0 marking an empty slot, and at most half full.
 */
#ifndef REACT_CTL_U64SLOT_H
#define REACT_CTL_U64SLOT_H

#include <stddef.h>
#include <stdint.h>

/* The slot that holds key, else the empty slot where it would go. */
static inline size_t react_u64_slot(const uint64_t *keys, size_t cap, uint64_t key)
{
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & (cap - 1);
	while (keys[i] && keys[i] != key)
		i = (i + 1) & (cap - 1);
	return i;
}

#endif
