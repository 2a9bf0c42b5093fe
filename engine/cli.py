"""The `extrados` command: analyze a model file, print example models.

Exit codes: 0 success, 2 bad input (message on stderr), 1 structure or solver trouble never;
a structure that does not stand is a result, not an error.
"""
import argparse
import json
import sys

from engine.errors import ModelError


def _parser():
    parser = argparse.ArgumentParser(prog="extrados", description="Masonry analysis with rigid blocks (NSCD).")
    sub = parser.add_subparsers(dest="command", required=True)
    analyze = sub.add_parser("analyze", help="analyse a model document (JSON)")
    analyze.add_argument("model", help="model JSON file, or - for standard input")
    analyze.add_argument("--analysis", default="static", choices=["static", "load_factor", "dynamic"])
    analyze.add_argument("--out", help="write the result document here (default: standard output)")
    analyze.add_argument("--png", help="write a picture of blocks, contact forces and joint resultants")
    example = sub.add_parser("example", help="print a generated example model",
                             description="Print a generated model; generator parameters as --name value.")
    example.add_argument("name", nargs="?", help="generator name; omit to list them")
    return parser


def _summary(result):
    doc = result.to_dict()
    solver = doc["solver"]
    lines = [f"analysis: {doc['analysis']}   stable: {'yes' if doc['stable'] else 'NO'} (decided by {doc.get('verdict_by')})",
             f"solver: {solver['name']}, {solver['iterations']} iterations, residual {solver['residual']:.2e}, "
             f"converged: {solver['converged']}, {solver['seconds']:.3f} s",
             f"blocks: {len(doc['blocks'])}, contacts: {len(doc['contacts'])}, joints: {len(doc['interfaces'])}"]
    if doc["interfaces"]:
        worst = max(doc["interfaces"], key=lambda j: j["normal_force"])
        lines.append(f"largest joint force: {worst['normal_force']:.1f} N between {worst['blocks'][0]} and "
                     f"{worst['blocks'][1]}")
    return "\n".join(lines)


def _read_model(path):
    from engine.model import Model

    if path == "-":
        return Model.from_json(sys.stdin.read())
    return Model.from_json(path)


def _run_analyze(args):
    from engine.analysis import analyze

    model = _read_model(args.model)
    result = analyze(model, {"type": args.analysis})
    text = json.dumps(result.to_dict())
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(_summary(result))
        print(f"result written to {args.out}")
    else:
        print(text)
        print(_summary(result), file=sys.stderr)
    if args.png:
        from engine.post.plot import plot_result

        plot_result(model, result, args.png)
        print(f"picture written to {args.png}", file=sys.stderr if not args.out else sys.stdout)


def _parse_params(extra, generator):
    params = {}
    it = iter(extra)
    for token in it:
        if not token.startswith("--"):
            raise ModelError(f"unexpected argument {token!r}; give parameters as --name value")
        name = token[2:].replace("-", "_")
        if "=" in name:
            name, value = name.split("=", 1)
        else:
            try:
                value = next(it)
            except StopIteration:
                raise ModelError(f"parameter --{name} needs a value") from None
        params[name] = value
    return generator.convert(params)


def _run_example(args, extra):
    from engine.generators import GENERATORS

    if not args.name:
        for name, gen in GENERATORS.items():
            print(f"{name}: {gen.help}")
        return
    if args.name not in GENERATORS:
        raise ModelError(f"unknown example {args.name!r} (available: {', '.join(GENERATORS)})", path="name")
    generator = GENERATORS[args.name]
    try:
        doc = generator(**_parse_params(extra, generator))
    except ValueError as exc:
        raise ModelError(str(exc)) from exc
    print(json.dumps(doc, indent=1))


def main(argv=None):
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    try:
        if args.command == "example":
            _run_example(args, extra)
        else:
            if extra:
                parser.error(f"unrecognized arguments: {' '.join(extra)}")
            _run_analyze(args)
    except ModelError as exc:
        print(f"extrados: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
