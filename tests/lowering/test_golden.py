"""Golden tests of every printable stage of the Collatz example: code, ssa, types, graph."""

import textwrap

import numpy as np

import tograph as tg


def collatz_steps(n):
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def expect(text, golden):
    assert text.strip() == textwrap.dedent(golden).strip()


def concrete():
    return tg.to_static(collatz_steps).concrete(np.int64(27))


def test_code_golden_and_valid_python():
    code = concrete().code
    compile(code, "<cf.code>", "exec")
    expect(
        code,
        """
    def collatz_steps(n):
        steps = 0

        def loop_test_1(n, steps):
            return n > 1

        def loop_body_1(n, steps):

            def if_body_2(n):
                n = n // 2
                return n,

            def else_body_2(n):
                n = 3 * n + 1
                return n,
            n, = _t.if_stmt(n % 2 == 0, if_body_2, else_body_2, (n,), ('n',), ('n',))
            steps += 1
            return n, steps
        n, steps = _t.while_stmt(loop_test_1, loop_body_1, (n, steps), ('n', 'steps'))
        return steps
    """,
    )


def test_ssa_golden():
    expect(
        concrete().ssa,
        """
    def collatz_steps(n):
        steps = 0
        loop_1:
            n_1 = φ(n, n_4)
            steps_1 = φ(steps, steps_2)
            while n_1 > 1:
                if n_1 % 2 == 0:
                    n_2 = n_1 // 2
                else:
                    n_3 = 3 * n_1 + 1
                n_4 = φ(n_2, n_3)
                steps_2 = steps_1 + 1
        return steps_1
    """,
    )


def test_types_golden():
    assert concrete().types == {
        "n": "i64[]",
        "steps": "int (static)",
        "n_1": "i64[]",
        "steps_1": "i64[]~",
        "n_2": "i64[]",
        "n_3": "i64[]",
        "n_4": "i64[]",
        "steps_2": "i64[]~",
    }


def test_graph_golden():
    expect(
        str(concrete().graph),
        """
    graph collatz_steps(n:i64[]):
      n_1:i64[], steps:i64[]~ = while_loop[num_consts=0] n 0
        cond(n_2:i64[], steps_1:i64[]~):
          t0:bool[] = greater n_2 1
          return t0
        body(n_3:i64[], steps_2:i64[]~):
          t1:i64[] = mod n_3 2
          t2:bool[] = equal t1 0
          n_4:i64[] = cond t2 n_3
            then(n_5:i64[]):
              t3:i64[] = floor_divide n_5 2
              return t3
            else(n_6:i64[]):
              t4:i64[] = multiply 3 n_6
              t5:i64[] = add t4 1
              return t5
          t6:i64[]~ = add steps_2 1
          return n_4, t6
      return steps
    """,
    )


def test_result_is_python_int_like_eager():
    f = tg.to_static(collatz_steps)
    got = f(np.int64(27))
    assert got == collatz_steps(np.int64(27)) == 111
    assert type(got) is type(collatz_steps(np.int64(27)))
    assert f.concrete(np.int64(27)).op_counts()["while_loop"] == 1
