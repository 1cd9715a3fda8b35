"""The bundled demo table: a scripted game, its renderer, oracle and evaluation."""
