/* test_csv.c - the one CSV reader and field writer (react/csv.h). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "react/csv.h"

Test(csv, split_keeps_empty_fields)
{
	char line[] = "a,,b,";
	char *f[8];
	cr_assert_eq(react_csv_split(line, f, 8), 4);
	cr_assert_str_eq(f[0], "a");
	cr_assert_str_eq(f[1], "");
	cr_assert_str_eq(f[2], "b");
	cr_assert_str_eq(f[3], "");
}

Test(csv, split_quotes)
{
	char line[] = "id,\"x, y\",\"say \"\"hi\"\"\",\"\",z";
	char *f[8];
	cr_assert_eq(react_csv_split(line, f, 8), 5);
	cr_assert_str_eq(f[0], "id");
	cr_assert_str_eq(f[1], "x, y");
	cr_assert_str_eq(f[2], "say \"hi\"");
	cr_assert_str_eq(f[3], "");
	cr_assert_str_eq(f[4], "z");
}

Test(csv, split_stops_at_max)
{
	char line[] = "1,2,3,4";
	char *f[3];
	cr_assert_eq(react_csv_split(line, f, 3), 3);
	cr_assert_str_eq(f[0], "1");
	cr_assert_str_eq(f[1], "2");
	cr_assert_str_eq(f[2], "3");
	char one[] = "";
	cr_assert_eq(react_csv_split(one, f, 3), 1);
	cr_assert_str_eq(f[0], "");
}

Test(csv, field_offset_respects_quotes)
{
	const char *l = "a,\"b,c\",d";
	cr_assert_eq(react_csv_field_offset(l, 0), 0);
	cr_assert_eq(react_csv_field_offset(l, 1), 2);
	cr_assert_eq(react_csv_field_offset(l, 2), 8);
	cr_assert_eq(react_csv_field_offset(l, 3), strlen(l));
}

/* What the writer writes, the reader reads back. */
Test(csv, write_then_split_round_trip)
{
	static const char *const v[] = {"plain", "with,comma", "with \"quote\"", "two\nlines", ""};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	for (size_t i = 0; i < 5; i++) {
		if (i)
			fputc(',', f);
		cr_assert_eq(react_csv_write_field(f, v[i]), 0);
	}
	fclose(f);
	cr_assert_str_eq(buf, "plain,\"with,comma\",\"with \"\"quote\"\"\",\"two\nlines\",");
	cr_assert(!react_csv_needs_quotes("plain"));
	cr_assert(react_csv_needs_quotes("a,b"));
	char *fl[8];
	cr_assert_eq(react_csv_split(buf, fl, 8), 5);
	for (size_t i = 0; i < 5; i++)
		cr_assert_str_eq(fl[i], v[i]);
	free(buf);
}

/* A row through react_csv_row_t: commas between fields only, text quoted
 * when it needs it or when asked, printf fields (short and long), empty
 * fields, one newline; the reader reads it back. */
Test(csv, row_writer)
{
	char *buf = NULL, *fl[8], longer[300];
	size_t len = 0;
	memset(longer, 'x', sizeof longer - 1);
	longer[sizeof longer - 1] = 0;
	FILE *f = open_memstream(&buf, &len);
	react_csv_row_t r;
	react_csv_row_start(&r, f);
	react_csv_row_field(&r, "c0001");
	react_csv_row_quoted(&r, "seed=1 p=\"2\"");
	react_csv_row_printf(&r, "%.6f", 1.0 / 3);
	react_csv_row_field(&r, "");
	react_csv_row_printf(&r, "%s,%lld", "a", 42LL);
	react_csv_row_printf(&r, "%s", longer);
	cr_assert_eq(react_csv_row_end(&r), 0);
	react_csv_row_start(&r, f);
	react_csv_row_quoted(&r, "");
	cr_assert_eq(react_csv_row_end(&r), 0);
	fclose(f);
	char want[600];
	snprintf(want, sizeof want, "c0001,\"seed=1 p=\"\"2\"\"\",0.333333,,\"a,42\",%s\n\"\"\n",
	         longer);
	cr_assert_str_eq(buf, want);
	buf[strcspn(buf, "\n")] = 0;
	cr_assert_eq(react_csv_split(buf, fl, 8), 6);
	cr_assert_str_eq(fl[1], "seed=1 p=\"2\"");
	cr_assert_str_eq(fl[4], "a,42");
	cr_assert_str_eq(fl[5], longer);
	free(buf);
}

/* A write error is kept to the row's end and reported there. */
Test(csv, row_writer_reports_write_errors)
{
	FILE *f = fopen("/dev/full", "w");
	cr_assert_not_null(f);
	setvbuf(f, NULL, _IONBF, 0);
	react_csv_row_t r;
	react_csv_row_start(&r, f);
	react_csv_row_field(&r, "a");
	react_csv_row_printf(&r, "%d", 1);
	cr_assert_eq(react_csv_row_end(&r), -1);
	fclose(f);
}
