/*
 * What a dialog asks, read off any screen (question.c): any bytes, with or
 * without colours. A question read is whole: its strings end inside their
 * fields, its options are counted right, its selection is one of them,
 * and the same screen gives the same fingerprint.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct question	 q, r;
	const char	*words[] = { "allow", "yes", "n", "always", "7", "x" };
	char		*s, key[16];
	static const char *what[] = { "allow", "deny", "always", "1", "12" };
	int		 i, sel;

	s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	if (question_from_screen("permission", s, &q) == 0) {
		if (q.noptions < 1 || q.noptions > QUESTION_MAX_OPTIONS ||
		    q.selected < -1 || q.selected >= q.noptions ||
		    strlen(q.fingerprint) != SHA256_HEX - 1 ||
		    q.subject == NULL || q.lines < 1 ||
		    strlen(q.text) >= sizeof q.text)
			abort();
		if (question_from_screen("permission", s, &r) != 0 ||
		    strcmp(q.fingerprint, r.fingerprint) != 0)
			abort();
		question_add_hook(&r, "Bash", s);
		question_free(&r);
		for (i = 0; i < 5; i++) {
			if (question_option_key(&q, what[i], key,
			    sizeof key) >= q.noptions)
				abort();
		}
		sel = question_selected_sgr(s, &q);
		if (sel < -1 || sel >= q.noptions)
			abort();
	}
	question_free(&q);
	for (i = 0; i < 6; i++)
		(void)question_choice(words[i]);
	free(s);
	return (0);
}
