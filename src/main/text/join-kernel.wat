;; The similarity join's kernel (all-pairs.ts): one row against every later row, written as WebAssembly because
;; V8 makes about twice as fast a loop of it as of the same JavaScript (docs/BENCH.md, "Where the join's time goes").
;; It does what joinRows does, in the same order, so each pair's score is the same number to the last bit: the rare
;; part accumulated through two posting lists side by side, the bound scan, the exact frequent part of each
;; candidate. The bound scan tests two rows at a time with SIMD (f64x2): each lane rounds its multiply and add as the
;; scalar code does, so the same rows pass. Its source of truth is this file: `node scripts/build-join-kernel.cjs`
;; writes join-kernel-wasm.ts.
;;
;; Every array lives in the one shared memory the module imports (join-arena.ts); `setup` takes their byte offsets
;; (each thread its own acc, dense and output), then `row(i)` writes row i's pairs — later rows j in ascending order
;; to outJ, their scores (capped at 1) to outS — and returns how many. acc and dense are left all zero.
(module
  (import "env" "memory" (memory 1 32768 shared))
  (global $g_theta (mut f64) (f64.const 0))
  (global $g_need (mut f64) (f64.const 0))
  (global $g_n (mut i32) (i32.const 0))
  (global $g_rowPtr (mut i32) (i32.const 0))
  (global $g_split (mut i32) (i32.const 0))
  (global $g_colIdx (mut i32) (i32.const 0))
  (global $g_values (mut i32) (i32.const 0))
  (global $g_rarePos (mut i32) (i32.const 0))
  (global $g_postPtr (mut i32) (i32.const 0))
  (global $g_postDoc (mut i32) (i32.const 0))
  (global $g_postVal (mut i32) (i32.const 0))
  (global $g_freqNorm (mut i32) (i32.const 0))
  (global $g_acc (mut i32) (i32.const 0))
  (global $g_dense (mut i32) (i32.const 0))
  (global $g_outJ (mut i32) (i32.const 0))
  (global $g_outS (mut i32) (i32.const 0))

  (func (export "setup") (param $theta f64) (param $need f64) (param $n i32) (param $rowPtr i32) (param $split i32) (param $colIdx i32) (param $values i32) (param $rarePos i32) (param $postPtr i32) (param $postDoc i32) (param $postVal i32) (param $freqNorm i32) (param $acc i32) (param $dense i32) (param $outJ i32) (param $outS i32)
    (global.set $g_theta (local.get $theta))
    (global.set $g_need (local.get $need))
    (global.set $g_n (local.get $n))
    (global.set $g_rowPtr (local.get $rowPtr))
    (global.set $g_split (local.get $split))
    (global.set $g_colIdx (local.get $colIdx))
    (global.set $g_values (local.get $values))
    (global.set $g_rarePos (local.get $rarePos))
    (global.set $g_postPtr (local.get $postPtr))
    (global.set $g_postDoc (local.get $postDoc))
    (global.set $g_postVal (local.get $postVal))
    (global.set $g_freqNorm (local.get $freqNorm))
    (global.set $g_acc (local.get $acc))
    (global.set $g_dense (local.get $dense))
    (global.set $g_outJ (local.get $outJ))
    (global.set $g_outS (local.get $outS)))

  ;; A candidate j of row i, its rare part accumulated: the exact frequent part through row i's dense frequent part;
  ;; a pair at the threshold or above goes to the output (its score capped at 1). Returns the pairs now written.
  (func $verify (param $j i32) (param $rare f64) (param $count i32) (result i32)
    (local $f f64) (local $g i32) (local $g1 i32) (local $s f64) (local $colIdx i32) (local $values i32) (local $dense i32)
    (local.set $colIdx (global.get $g_colIdx))
    (local.set $values (global.get $g_values))
    (local.set $dense (global.get $g_dense))
    (local.set $g (i32.load (i32.add (global.get $g_split) (i32.shl (local.get $j) (i32.const 2)))))
    (local.set $g1 (i32.load (i32.add (global.get $g_rowPtr) (i32.shl (i32.add (local.get $j) (i32.const 1)) (i32.const 2)))))
    (block $verifyDone (loop $verify
      (br_if $verifyDone (i32.ge_u (local.get $g) (local.get $g1)))
      (local.set $f (f64.add (local.get $f)
        (f64.mul
          (f64.load (i32.add (local.get $dense) (i32.shl (i32.load (i32.add (local.get $colIdx) (i32.shl (local.get $g) (i32.const 2)))) (i32.const 3))))
          (f64.load (i32.add (local.get $values) (i32.shl (local.get $g) (i32.const 3)))))))
      (local.set $g (i32.add (local.get $g) (i32.const 1)))
      (br $verify)))
    (local.set $s (f64.add (local.get $rare) (local.get $f)))
    (if (f64.ge (local.get $s) (global.get $g_theta)) (then
      (i32.store (i32.add (global.get $g_outJ) (i32.shl (local.get $count) (i32.const 2))) (local.get $j))
      (f64.store (i32.add (global.get $g_outS) (i32.shl (local.get $count) (i32.const 3)))
        (select (local.get $s) (f64.const 1) (f64.lt (local.get $s) (f64.const 1))))
      (local.set $count (i32.add (local.get $count) (i32.const 1)))))
    (local.get $count))

  (func (export "row") (param $i i32) (result i32)
    (local $need f64)
    (local $n i32) (local $rowPtr i32) (local $split i32) (local $colIdx i32) (local $values i32) (local $rarePos i32) (local $postPtr i32) (local $postDoc i32) (local $postVal i32) (local $freqNorm i32) (local $acc i32) (local $dense i32)
    (local $q i32) (local $f0 i32) (local $f1 i32) (local $j i32)
    (local $p1 i32) (local $p2 i32) (local $e1 i32) (local $e2 i32) (local $both i32) (local $count i32) (local $at i32)
    (local $w1 f64) (local $w2 f64) (local $bi f64) (local $rare f64)
    (local $vbi v128) (local $vneed v128) (local $mask v128)
    ;; the offsets as locals: read once, not from the globals in every loop
    (local.set $need (global.get $g_need))
    (local.set $n (global.get $g_n))
    (local.set $rowPtr (global.get $g_rowPtr))
    (local.set $split (global.get $g_split))
    (local.set $colIdx (global.get $g_colIdx))
    (local.set $values (global.get $g_values))
    (local.set $rarePos (global.get $g_rarePos))
    (local.set $postPtr (global.get $g_postPtr))
    (local.set $postDoc (global.get $g_postDoc))
    (local.set $postVal (global.get $g_postVal))
    (local.set $freqNorm (global.get $g_freqNorm))
    (local.set $acc (global.get $g_acc))
    (local.set $dense (global.get $g_dense))
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
  ;; the bound scan, two rows j at a time (each lane computes rare + bi·‖xⱼᶠ‖ as the scalar code would, so the
  ;; same rows pass), each candidate verified exactly, in ascending j
  (local.set $bi (f64.load (i32.add (local.get $freqNorm) (i32.shl (local.get $i) (i32.const 3)))))
  (local.set $vbi (f64x2.splat (local.get $bi)))
  (local.set $vneed (f64x2.splat (local.get $need)))
  (local.set $j (i32.add (local.get $i) (i32.const 1)))
  (block $scanDone (loop $scan
    (br_if $scanDone (i32.ge_u (i32.add (local.get $j) (i32.const 1)) (local.get $n)))
    (local.set $mask (f64x2.ge
      (f64x2.add
        (v128.load align=8 (i32.add (local.get $acc) (i32.shl (local.get $j) (i32.const 3))))
        (f64x2.mul (local.get $vbi) (v128.load align=8 (i32.add (local.get $freqNorm) (i32.shl (local.get $j) (i32.const 3))))))
      (local.get $vneed)))
    (if (v128.any_true (local.get $mask)) (then
      (if (i64.ne (i64x2.extract_lane 0 (local.get $mask)) (i64.const 0)) (then
        (local.set $count (call $verify (local.get $j) (f64.load (i32.add (local.get $acc) (i32.shl (local.get $j) (i32.const 3)))) (local.get $count)))))
      (if (i64.ne (i64x2.extract_lane 1 (local.get $mask)) (i64.const 0)) (then
        (local.set $count (call $verify (i32.add (local.get $j) (i32.const 1))
          (f64.load (i32.add (local.get $acc) (i32.shl (i32.add (local.get $j) (i32.const 1)) (i32.const 3)))) (local.get $count)))))))
    (local.set $j (i32.add (local.get $j) (i32.const 2)))
    (br $scan)))
  ;; an odd last row
  (if (i32.lt_u (local.get $j) (local.get $n)) (then
    (local.set $rare (f64.load (i32.add (local.get $acc) (i32.shl (local.get $j) (i32.const 3)))))
    (if (f64.ge (f64.add (local.get $rare) (f64.mul (local.get $bi) (f64.load (i32.add (local.get $freqNorm) (i32.shl (local.get $j) (i32.const 3)))))) (local.get $need))
      (then (local.set $count (call $verify (local.get $j) (local.get $rare) (local.get $count)))))))
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
    (local.get $count))
)
