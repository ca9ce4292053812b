"""What near-duplicate-stem and the bank-consistency rules compare across a bank: the stem key, the search and its
kept index, the same-question test, the words of stems and options as numbers, contradictory-keys' records and
grouping, enemy-items' records and search. Import the module you need; this package imports nothing."""
