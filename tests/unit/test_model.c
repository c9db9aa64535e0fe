// SPDX-License-Identifier: GPL-2.0-or-later
/* The model's building blocks: growable arrays and buffers. */
#include "config.h"

#include "unit.h"

#include "core/model.h"
#include "core/model_ib.h"

static void test_buf_reserve(void **state)
{
	char *b = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(rd_buf_reserve((void **)&b, &cap, 0, 16), 0);
	assert_null(b);		/* nothing needed: nothing allocated */
	assert_int_equal(rd_buf_reserve((void **)&b, &cap, 5, 16), 0);
	assert_non_null(b);
	assert_int_equal(cap, 16);
	memcpy(b, "abcde", 5);
	assert_int_equal(rd_buf_reserve((void **)&b, &cap, 16, 16), 0);
	assert_int_equal(cap, 16);	/* fits: unchanged */
	assert_int_equal(rd_buf_reserve((void **)&b, &cap, 17, 16), 0);
	assert_int_equal(cap, 32);
	assert_int_equal(rd_buf_reserve((void **)&b, &cap, 200, 16), 0);
	assert_int_equal(cap, 256);
	assert_memory_equal(b, "abcde", 5);	/* kept across growth */
	/* Too large to double: refused, the buffer kept. */
	assert_int_equal(rd_buf_reserve((void **)&b, &cap, SIZE_MAX - 1, 16),
			 -ENOMEM);
	assert_int_equal(cap, 256);
	assert_memory_equal(b, "abcde", 5);
	free(b);
}

static void test_array_push(void **state)
{
	uint64_t *v = NULL;
	size_t n = 0;

	(void)state;
	for (uint64_t i = 0; i < 100; i++) {
		uint64_t *e = RD_PUSH(v, n);

		assert_non_null(e);
		assert_int_equal(*e, 0);	/* zeroed */
		*e = i;
	}
	assert_int_equal(n, 100);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(v[i], i);
	free(v);
}

static void test_array_push_named(void **state)
{
	struct named {
		int before;
		char *name;
		int after;
	} *v = NULL;
	size_t n = 0;
	char word[16];

	(void)state;
	for (int i = 0; i < 9; i++) {
		struct named *e;

		snprintf(word, sizeof(word), "entry%d", i);
		e = RD_PUSH_NAMED(v, n, name, word);
		assert_non_null(e);
		assert_ptr_not_equal(e->name, word); /* a copy */
		assert_int_equal(e->before, 0);
		assert_int_equal(e->after, 0);
	}
	assert_int_equal(n, 9);
	assert_string_equal(v[0].name, "entry0");
	assert_string_equal(v[8].name, "entry8");
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/* A reset struct owns nothing and reads as absent everywhere. */
static void test_model_reset(void **state)
{
	struct item {
		char *name;
		struct rd_ou64 mtu;
		struct rd_counters ctrs;
	} it = { 0 };
	static const struct rd_field fields[] = {
		RD_FLD_STR(struct item, name, "name"),
		RD_FLD_U64(struct item, mtu, "mtu"),
		RD_FLD_COUNTERS(struct item, ctrs, "counters"),
		RD_FLD_END,
	};

	(void)state;
	it.name = strdup("eth0");
	it.mtu = rd_u64(9000);
	assert_non_null(rd_counters_add(&it.ctrs, "rx", rd_u64(1)));
	rd_model_reset(fields, &it, sizeof(it));
	assert_null(it.name);
	assert_false(it.mtu.ok);
	assert_int_equal(it.mtu.v, 0);
	assert_null(it.ctrs.v);
	assert_int_equal(it.ctrs.n, 0);
}

/* The port vocabulary: every state, read or not, and the names. */
static void test_port_states(void **state)
{
	static const struct {
		uint64_t num;
		const char *name;
		bool active;
	} states[] = {
		{ RD_PORT_DOWN, "DOWN", false },
		{ RD_PORT_INIT, "INIT", false },
		{ RD_PORT_ARMED, "ARMED", false },
		{ RD_PORT_ACTIVE, "ACTIVE", true },
		{ RD_PORT_ACTIVE_DEFER, "ACTIVE_DEFER", true },
	};
	struct rd_port p = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		assert_int_equal(states[i].num, i + 1); /* ib_port_state */
		p.state_num = rd_u64(states[i].num);
		assert_int_equal(rd_port_active(&p), states[i].active);
		assert_true(rd_port_state_is(&p, states[i].num));
		assert_string_equal(rd_port_state_name(states[i].num),
				    states[i].name);
		/* Not read: never active, whatever the number left there. */
		p.state_num.ok = false;
		assert_false(rd_port_active(&p));
		assert_false(rd_port_state_is(&p, states[i].num));
	}
	p.phys_state_num = rd_u64(RD_PHYS_LINK_UP);
	assert_true(rd_port_phys_is(&p, RD_PHYS_LINK_UP));
	assert_false(rd_port_phys_is(&p, RD_PHYS_POLLING));
	assert_string_equal(rd_port_phys_state_name(RD_PHYS_LINK_UP),
			    "LINK_UP");
	assert_string_equal(rd_port_phys_state_label(RD_PHYS_POLLING),
			    "Polling");

	assert_false(rd_port_is_eth(&p)); /* link layer not read */
	assert_false(rd_port_is_ib(&p));
	p.link_layer = "Ethernet";
	assert_true(rd_port_is_eth(&p));
	assert_false(rd_port_is_ib(&p));
	p.link_layer = "InfiniBand";
	assert_true(rd_port_is_ib(&p));
	assert_false(rd_port_is_eth(&p));
}

/* A file with the names only: the numbers follow; a wrong name is refused. */
static void test_port_nums_from_names(void **state)
{
	struct rd_port p = { 0 };
	char err[256] = "";

	(void)state;
	p.state = "4: ACTIVE";
	p.phys_state = "link_up";
	assert_int_equal(rd_port_nums_from_names(&p, err, sizeof(err)), 0);
	assert_true(rd_port_state_is(&p, RD_PORT_ACTIVE));
	assert_true(rd_port_phys_is(&p, RD_PHYS_LINK_UP));

	/* Numbers read win over names. */
	p.state = "DOWN";
	assert_int_equal(rd_port_nums_from_names(&p, err, sizeof(err)), 0);
	assert_true(rd_port_active(&p));

	p = (struct rd_port){ .state = "SLEEPY" };
	assert_int_equal(rd_port_nums_from_names(&p, err, sizeof(err)),
			 -EINVAL);
	assert_false(p.state_num.ok);
	assert_string_equal(err, "state \"SLEEPY\" is not a port state and "
				 "state_num is missing");
	/* "UNKNOWN" is what the table says outside it, not a state. */
	p = (struct rd_port){ .phys_state = "UNKNOWN" };
	assert_int_equal(rd_port_nums_from_names(&p, err, sizeof(err)),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buf_reserve),
		cmocka_unit_test(test_array_push),
		cmocka_unit_test(test_array_push_named),
		cmocka_unit_test(test_model_reset),
		cmocka_unit_test(test_port_states),
		cmocka_unit_test(test_port_nums_from_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
