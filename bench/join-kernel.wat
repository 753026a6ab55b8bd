;; The similarity join's kernel (src/main/text/all-pairs.ts, joinRows) written as WebAssembly, for
;; bench/join-wasm.bench.ts: it measures what the same walk costs compiled from WebAssembly instead of JavaScript.
;; Not used by the product. Same arithmetic in the same order as joinRows (two posting lists side by side, then the
;; bound scan, then the exact frequent part), so each pair's score is the same number to the last bit.
;;
;; Every array lives in the one shared memory the module imports; the caller passes byte offsets. Rows [lo, hi):
;; returns the pairs found (score ≥ theta) and adds their scores (clamped to 1) to the exported global $sum. The
;; accumulation is written out at each use: V8 (Node 20) does not inline WebAssembly calls, and a call per posting
;; cost as much as the whole JavaScript kernel.
(module
  (import "env" "memory" (memory 1 65536 shared))
  (global $sum (export "sum") (mut f64) (f64.const 0))

  (func (export "join")
    (param $lo i32) (param $hi i32) (param $n i32) (param $theta f64) (param $need f64)
    (param $rowPtr i32) (param $split i32) (param $colIdx i32) (param $values i32) (param $rarePos i32)
    (param $postPtr i32) (param $postDoc i32) (param $postVal i32) (param $freqNorm i32) (param $acc i32) (param $dense i32)
    (result i32)
    (local $i i32) (local $q i32) (local $f0 i32) (local $f1 i32) (local $j i32) (local $g i32) (local $g1 i32)
    (local $p1 i32) (local $p2 i32) (local $at i32) (local $e1 i32) (local $e2 i32) (local $both i32) (local $count i32)
    (local $w1 f64) (local $w2 f64) (local $bi f64) (local $rare f64) (local $f f64) (local $s f64)
    (local.set $i (local.get $lo))
    (block $rowsDone (loop $rows
      (br_if $rowsDone (i32.ge_u (local.get $i) (local.get $hi)))
      (local.set $f0 (i32.load (i32.add (local.get $split) (i32.shl (local.get $i) (i32.const 2)))))
      (local.set $q (i32.load (i32.add (local.get $rowPtr) (i32.shl (local.get $i) (i32.const 2)))))
      ;; rare part, two lists at a time
      (block $pairsDone (loop $pairs
        (br_if $pairsDone (i32.ge_u (i32.add (local.get $q) (i32.const 1)) (local.get $f0)))
        (local.set $w1 (f64.load (i32.add (local.get $values) (i32.shl (local.get $q) (i32.const 3)))))
        (local.set $w2 (f64.load (i32.add (local.get $values) (i32.shl (i32.add (local.get $q) (i32.const 1)) (i32.const 3)))))
        (local.set $p1 (i32.add (i32.load (i32.add (local.get $rarePos) (i32.shl (local.get $q) (i32.const 2)))) (i32.const 1)))
        (local.set $p2 (i32.add (i32.load (i32.add (local.get $rarePos) (i32.shl (i32.add (local.get $q) (i32.const 1)) (i32.const 2)))) (i32.const 1)))
        (local.set $e1 (i32.load (i32.add (local.get $postPtr) (i32.shl (i32.add (i32.load (i32.add (local.get $colIdx) (i32.shl (local.get $q) (i32.const 2)))) (i32.const 1)) (i32.const 2)))))
        (local.set $e2 (i32.load (i32.add (local.get $postPtr) (i32.shl (i32.add (i32.load (i32.add (local.get $colIdx) (i32.shl (i32.add (local.get $q) (i32.const 1)) (i32.const 2)))) (i32.const 1)) (i32.const 2)))))
        (local.set $both (i32.add (local.get $p1)
          (select (i32.sub (local.get $e1) (local.get $p1)) (i32.sub (local.get $e2) (local.get $p2))
            (i32.lt_s (i32.sub (local.get $e1) (local.get $p1)) (i32.sub (local.get $e2) (local.get $p2))))))
        (block $bothDone (loop $bothLoop
          (br_if $bothDone (i32.ge_u (local.get $p1) (local.get $both)))
          (local.set $at (i32.add (local.get $acc) (i32.shl (i32.load (i32.add (local.get $postDoc) (i32.shl (local.get $p1) (i32.const 2)))) (i32.const 3))))
          (f64.store (local.get $at) (f64.add (f64.load (local.get $at)) (f64.mul (local.get $w1) (f64.load (i32.add (local.get $postVal) (i32.shl (local.get $p1) (i32.const 3)))))))
          (local.set $at (i32.add (local.get $acc) (i32.shl (i32.load (i32.add (local.get $postDoc) (i32.shl (local.get $p2) (i32.const 2)))) (i32.const 3))))
          (f64.store (local.get $at) (f64.add (f64.load (local.get $at)) (f64.mul (local.get $w2) (f64.load (i32.add (local.get $postVal) (i32.shl (local.get $p2) (i32.const 3)))))))
          (local.set $p1 (i32.add (local.get $p1) (i32.const 1)))
          (local.set $p2 (i32.add (local.get $p2) (i32.const 1)))
          (br $bothLoop)))
        (block $oneDone (loop $one
          (br_if $oneDone (i32.ge_u (local.get $p1) (local.get $e1)))
          (local.set $at (i32.add (local.get $acc) (i32.shl (i32.load (i32.add (local.get $postDoc) (i32.shl (local.get $p1) (i32.const 2)))) (i32.const 3))))
          (f64.store (local.get $at) (f64.add (f64.load (local.get $at)) (f64.mul (local.get $w1) (f64.load (i32.add (local.get $postVal) (i32.shl (local.get $p1) (i32.const 3)))))))
          (local.set $p1 (i32.add (local.get $p1) (i32.const 1)))
          (br $one)))
        (block $twoDone (loop $two
          (br_if $twoDone (i32.ge_u (local.get $p2) (local.get $e2)))
          (local.set $at (i32.add (local.get $acc) (i32.shl (i32.load (i32.add (local.get $postDoc) (i32.shl (local.get $p2) (i32.const 2)))) (i32.const 3))))
          (f64.store (local.get $at) (f64.add (f64.load (local.get $at)) (f64.mul (local.get $w2) (f64.load (i32.add (local.get $postVal) (i32.shl (local.get $p2) (i32.const 3)))))))
          (local.set $p2 (i32.add (local.get $p2) (i32.const 1)))
          (br $two)))
        (local.set $q (i32.add (local.get $q) (i32.const 2)))
        (br $pairs)))
      ;; an odd last rare term
      (if (i32.lt_u (local.get $q) (local.get $f0)) (then
        (local.set $w1 (f64.load (i32.add (local.get $values) (i32.shl (local.get $q) (i32.const 3)))))
        (local.set $p1 (i32.add (i32.load (i32.add (local.get $rarePos) (i32.shl (local.get $q) (i32.const 2)))) (i32.const 1)))
        (local.set $e1 (i32.load (i32.add (local.get $postPtr) (i32.shl (i32.add (i32.load (i32.add (local.get $colIdx) (i32.shl (local.get $q) (i32.const 2)))) (i32.const 1)) (i32.const 2)))))
        (block $lastDone (loop $last
          (br_if $lastDone (i32.ge_u (local.get $p1) (local.get $e1)))
          (local.set $at (i32.add (local.get $acc) (i32.shl (i32.load (i32.add (local.get $postDoc) (i32.shl (local.get $p1) (i32.const 2)))) (i32.const 3))))
          (f64.store (local.get $at) (f64.add (f64.load (local.get $at)) (f64.mul (local.get $w1) (f64.load (i32.add (local.get $postVal) (i32.shl (local.get $p1) (i32.const 3)))))))
          (local.set $p1 (i32.add (local.get $p1) (i32.const 1)))
          (br $last)))))
      ;; row i's frequent part, laid out densely
      (local.set $f1 (i32.load (i32.add (local.get $rowPtr) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 2)))))
      (local.set $q (local.get $f0))
      (block $denseDone (loop $denseLoop
        (br_if $denseDone (i32.ge_u (local.get $q) (local.get $f1)))
        (f64.store (i32.add (local.get $dense) (i32.shl (i32.load (i32.add (local.get $colIdx) (i32.shl (local.get $q) (i32.const 2)))) (i32.const 3)))
          (f64.load (i32.add (local.get $values) (i32.shl (local.get $q) (i32.const 3)))))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $denseLoop)))
      ;; the bound scan, each candidate verified exactly
      (local.set $bi (f64.load (i32.add (local.get $freqNorm) (i32.shl (local.get $i) (i32.const 3)))))
      (local.set $j (i32.add (local.get $i) (i32.const 1)))
      (block $scanDone (loop $scan
        (br_if $scanDone (i32.ge_u (local.get $j) (local.get $n)))
        (local.set $rare (f64.load (i32.add (local.get $acc) (i32.shl (local.get $j) (i32.const 3)))))
        (if (f64.ge (f64.add (local.get $rare) (f64.mul (local.get $bi) (f64.load (i32.add (local.get $freqNorm) (i32.shl (local.get $j) (i32.const 3)))))) (local.get $need))
          (then
            (local.set $f (f64.const 0))
            (local.set $g (i32.load (i32.add (local.get $split) (i32.shl (local.get $j) (i32.const 2)))))
            (local.set $g1 (i32.load (i32.add (local.get $rowPtr) (i32.shl (i32.add (local.get $j) (i32.const 1)) (i32.const 2)))))
            (block $verifyDone (loop $verify
              (br_if $verifyDone (i32.ge_u (local.get $g) (local.get $g1)))
              (local.set $f (f64.add (local.get $f)
                (f64.mul
                  (f64.load (i32.add (local.get $dense) (i32.shl (i32.load (i32.add (local.get $colIdx) (i32.shl (local.get $g) (i32.const 2)))) (i32.const 3))))
                  (f64.load (i32.add (local.get $values) (i32.shl (local.get $g) (i32.const 3)))))))
              (local.set $g (i32.add (local.get $g) (i32.const 1)))
              (br $verify)))
            (local.set $s (f64.add (local.get $rare) (local.get $f)))
            (if (f64.ge (local.get $s) (local.get $theta)) (then
              (local.set $count (i32.add (local.get $count) (i32.const 1)))
              (global.set $sum (f64.add (global.get $sum) (f64.min (local.get $s) (f64.const 1))))))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $scan)))
      ;; acc back to zero after row i, dense too
      (memory.fill
        (i32.add (local.get $acc) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 3)))
        (i32.const 0)
        (i32.shl (i32.sub (local.get $n) (i32.add (local.get $i) (i32.const 1))) (i32.const 3)))
      (local.set $q (local.get $f0))
      (block $clearDone (loop $clear
        (br_if $clearDone (i32.ge_u (local.get $q) (local.get $f1)))
        (f64.store (i32.add (local.get $dense) (i32.shl (i32.load (i32.add (local.get $colIdx) (i32.shl (local.get $q) (i32.const 2)))) (i32.const 3))) (f64.const 0))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $clear)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows)))
    (local.get $count))
)
