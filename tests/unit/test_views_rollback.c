// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The keep-this-change dialog as a dialog kind: opening it makes the kind
 * live, its tick brings it back over another dialog and counts down, its
 * key answers while it is open, the deadline passing turns it into the
 * not-kept dialog, and the kind's life ends when nothing is left to watch.
 */
#include "config.h"

#include "unit.h"

#include <stdlib.h>

#include "console/fixup.h"
#include "views/ui.h"

static void test_live_kind(void **state)
{
	struct ui *ui = calloc(1, sizeof(*ui));
	struct con_update u = { .confirm_by = 0 };
	const struct ui_dialog_kind *k;

	(void)state;
	assert_non_null(ui);
	snprintf(u.text, sizeof(u.text), "ip link set dev eth0 mtu 4200");
	snprintf(u.fix_id, sizeof(u.fix_id), "e1");
	u.confirm_by = con_fixup_clock() + 30;
	ui_rollback_open(ui, &u, NULL);
	k = ui->live_dialog;
	assert_non_null(k);
	assert_non_null(k->tick);
	assert_true(k->wake_ms > 0);
	assert_true(ui->dialog.open);
	assert_ptr_equal(ui->dialog.kind, k);
	assert_string_equal(ui->dialog.title, "Keep this change?");
	/* a key it does not take changes nothing */
	assert_int_equal(k->key(ui, 'x'), UI_REDO_NOTHING);
	assert_true(ui->rollback.on);

	/* another dialog took its place: the pending change comes first */
	ui_dialog_open(ui, "Something else", NULL, NULL, NULL);
	assert_int_equal(k->tick(ui), UI_REDO_DRAW);
	assert_string_equal(ui->dialog.title, "Keep this change?");
	assert_ptr_equal(ui->dialog.kind, k);

	/* the deadline passed: not kept, the journal is watched */
	ui->rollback.confirm_by = con_fixup_clock() - 1;
	assert_int_equal(k->tick(ui), UI_REDO_DRAW);
	assert_string_equal(ui->dialog.title, "Change not kept");
	assert_null(ui->dialog.kind);
	assert_false(ui->rollback.on);
	assert_true(ui->rollback.watch);
	assert_ptr_equal(ui->live_dialog, k);

	/* nothing left to watch: the kind's life ends */
	ui->rollback.watch = false;
	assert_int_equal(k->tick(ui), UI_REDO_NOTHING);
	assert_null(ui->live_dialog);
	free(ui);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_kind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
