from qlint.cli.main import run

run()
