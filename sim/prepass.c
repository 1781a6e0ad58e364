// SPDX-License-Identifier: GPL-2.0
/*
 * rt-app files are "JSON as workgen accepts it": C comments, trailing
 * commas and, above all, the same key repeated in one object to give a
 * sequence of events ("run", "sleep", "run", ...). A JSON library keeps
 * one value per key, so the order and the repeats would be lost before we
 * saw them. This pass rewrites the text into plain JSON first: comments
 * and trailing commas become blanks (newlines stay, so the parser's line
 * numbers are the file's), and the n-th repeat of a key gets "#n"
 * appended, which keeps rt-app's prefix matching of event names working.
 * A bare "suspend" key, which workgen completes with the thread's name,
 * gets an empty name, which parse.c completes the same way.
 */
#include <stdlib.h>
#include <string.h>
#include "sim.h"

struct obj {
	char **keys;
	int nr, cap;
	bool is_obj, expect_key;
};

struct out {
	char *s;
	size_t n, cap;
};

static void put(struct out *o, char c)
{
	if (o->n + 1 >= o->cap) {
		o->cap = o->cap ? 2 * o->cap : 4096;
		o->s = realloc(o->s, o->cap);
		if (!o->s)
			abort();
	}
	o->s[o->n++] = c;
}

/* Skips blanks and comments from @i; returns the next significant index. */
static size_t next_token(const char *t, size_t len, size_t i)
{
	while (i < len) {
		if (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r') {
			i++;
		} else if (t[i] == '/' && i + 1 < len && t[i + 1] == '/') {
			while (i < len && t[i] != '\n')
				i++;
		} else if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
			i += 2;
			while (i + 1 < len && !(t[i] == '*' && t[i + 1] == '/'))
				i++;
			i += 2;
		} else {
			break;
		}
	}
	return i;
}

static int seen(struct obj *ob, const char *key)
{
	int n = 0;

	for (int i = 0; i < ob->nr; i++)
		n += !strcmp(ob->keys[i], key);
	if (ob->nr == ob->cap) {
		ob->cap = ob->cap ? 2 * ob->cap : 8;
		ob->keys = realloc(ob->keys, ob->cap * sizeof(*ob->keys));
		if (!ob->keys)
			abort();
	}
	ob->keys[ob->nr++] = strdup(key);
	return n;
}

static void pop(struct obj *ob)
{
	for (int i = 0; i < ob->nr; i++)
		free(ob->keys[i]);
	free(ob->keys);
	*ob = (struct obj){};
}

char *sim_prepass(const char *t, size_t len)
{
	struct obj stack[128] = {};
	int depth = 0;
	struct out o = {};
	size_t i = 0;

	while (i < len) {
		char c = t[i];

		if (c == '/' && i + 1 < len && (t[i + 1] == '/' || t[i + 1] == '*')) {
			size_t end = next_token(t, len, i);

			for (; i < end && i < len; i++)
				put(&o, t[i] == '\n' ? '\n' : ' ');
			continue;
		}
		if (c == '"') {
			struct obj *ob = depth ? &stack[depth - 1] : NULL;
			bool key = ob && ob->is_obj && ob->expect_key;
			size_t start = o.n + 1;

			put(&o, t[i++]);
			while (i < len && t[i] != '"') {
				if (t[i] == '\\' && i + 1 < len)
					put(&o, t[i++]);
				put(&o, t[i++]);
			}
			if (key) {
				char *k = strndup(o.s + start, o.n - start);
				int n = seen(ob, k);

				free(k);
				if (n) {
					char sfx[16];

					snprintf(sfx, sizeof(sfx), "#%d", n);
					for (char *p = sfx; *p; p++)
						put(&o, *p);
				}
				ob->expect_key = false;
			}
			if (i < len)
				put(&o, t[i++]);
			/* workgen's bare "suspend": the thread's own name (parse.c) */
			if (key && !strncmp(o.s + start, "suspend", 7)) {
				size_t j = next_token(t, len, i);

				if (j < len && (t[j] == ',' || t[j] == '}'))
					for (const char *p = " : \"\""; *p; p++)
						put(&o, *p);
			}
			continue;
		}
		if (c == ',') {
			size_t j = next_token(t, len, i + 1);

			if (j < len && (t[j] == '}' || t[j] == ']')) {
				put(&o, ' ');	/* trailing comma */
			} else {
				put(&o, c);
				if (depth)
					stack[depth - 1].expect_key = true;
			}
			i++;
			continue;
		}
		if ((c == '{' || c == '[') && depth < (int)(sizeof(stack) / sizeof(*stack))) {
			stack[depth++] = (struct obj){ .is_obj = c == '{', .expect_key = c == '{' };
		} else if ((c == '}' || c == ']') && depth) {
			pop(&stack[--depth]);
		}
		put(&o, c);
		i++;
	}
	while (depth)
		pop(&stack[--depth]);
	put(&o, '\0');
	return o.s;
}
