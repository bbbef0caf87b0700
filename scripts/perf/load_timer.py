"""Time one load of a transcript file in a fresh process: prints the seconds and the
number of messages. Run by the benchmark: python scripts/perf/load_timer.py FILE"""

import sys
import time

from transcript.reader import load_transcript

if __name__ == "__main__":
    start = time.perf_counter()
    transcript = load_transcript(sys.argv[1])
    print(time.perf_counter() - start, len(transcript))
